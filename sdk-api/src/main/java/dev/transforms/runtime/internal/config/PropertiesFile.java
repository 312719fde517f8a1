package dev.transforms.runtime.internal.config;

import dev.transforms.api.ConfigurationException;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The configuration file: which file is read, and its keys, read the way {@link Properties} reads them
 * but with errors a user can act on (the line of a broken escape, the first byte that is not UTF-8, a
 * key set twice).
 */
public final class PropertiesFile {

  private PropertiesFile() {
  }

  /**
   * The file to read.
   *
   * @param named the file named on the command line, if any, relative to {@code workingDirectory}
   * @param workingDirectory the folder relative paths are resolved against
   * @param defaultName the file looked up in {@code workingDirectory} when none is named
   * @return the file, or empty when none is named and the default does not exist
   * @throws ConfigurationException if the named file is a folder, not a regular file, or missing
   */
  public static Optional<Path> locate(Optional<Path> named, Path workingDirectory, String defaultName) {
    Optional<Path> source = named.map(workingDirectory::resolve);
    if (source.isPresent() && Files.isDirectory(source.get())) {
      throw new ConfigurationException("Configuration file " + source.get() + " is a folder; name a properties file, "
          + "such as " + source.get().resolve(defaultName));
    }
    if (source.isPresent() && !Files.isRegularFile(source.get())) {
      // /dev/null, a named pipe (reading it waits for a writer) or a socket: there, but not a file of keys.
      throw new ConfigurationException("Configuration file " + source.get() + (Files.exists(source.get())
          ? " exists but is not a regular file (a device, a pipe or a socket); name a properties file"
          : " does not exist"));
    }
    Path candidate = workingDirectory.resolve(defaultName);
    return source.isPresent() || !Files.isRegularFile(candidate) ? source : Optional.of(candidate);
  }

  /**
   * The keys of a file with their values, both trimmed.
   *
   * @param file a properties file in UTF-8
   * @return the keys, sorted
   * @throws ConfigurationException if the file cannot be read, is not UTF-8, holds a broken escape or
   *     sets a key twice
   */
  public static Map<String, String> read(Path file) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (AccessDeniedException e) {
      throw new ConfigurationException("Cannot read configuration file " + file + ": permission denied", e);
    } catch (CharacterCodingException e) {
      // The decoder's own message ("Input length = 1") says nothing a user can act on: not kept as a cause.
      throw new ConfigurationException("Cannot read configuration file " + file + ": it is not UTF-8 text"
          + firstBadByte(file).orElse("") + "; save it as UTF-8");
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException("Cannot read configuration file " + file + malformedEscape(file).orElse("")
          + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new ConfigurationException("Cannot read configuration file " + file + ": " + e.getMessage(), e);
    }
    keyLines(file);
    Map<String, String> keys = new TreeMap<>();
    properties.stringPropertyNames().forEach(k -> keys.put(k.trim(), properties.getProperty(k).trim()));
    return keys;
  }

  /**
   * The line each key of the file is set on; refuses a key set twice ({@code build.threads=2}, later
   * {@code build.threads=3}): {@link Properties} keeps the last value without a word, and which one was meant
   * is anyone's guess. Each entry is read by {@link Properties} itself, one logical line at a time (a line
   * ending with an odd number of backslashes goes on on the next), so that keys are compared as it reads
   * them, escapes included; the lines are counted as written.
   */
  private static Map<String, Integer> keyLines(Path file) {
    List<String> lines;
    Map<String, Integer> firstLine = new HashMap<>();
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      return firstLine; // read once already; nothing more to find
    }
    int n = 0;
    while (n < lines.size()) {
      int start = n;
      String first = lines.get(n).replaceFirst("^[ \\t\\f]+", "");
      n++;
      if (first.isEmpty() || first.startsWith("#") || first.startsWith("!")) {
        continue;
      }
      StringBuilder entry = new StringBuilder(lines.get(start));
      while (continues(lines.get(n - 1)) && n < lines.size()) {
        entry.append('\n').append(lines.get(n));
        n++;
      }
      Properties one = new Properties();
      try {
        one.load(new StringReader(entry.toString()));
      } catch (IOException | IllegalArgumentException e) {
        continue; // the whole file loaded; a line cannot fail alone
      }
      for (String key : one.stringPropertyNames()) {
        Integer before = firstLine.putIfAbsent(key.trim(), start + 1);
        if (before != null) {
          throw new ConfigurationException("Configuration key '" + key.trim() + "' is set twice in file " + file
              + ", on line " + before + " and line " + (start + 1) + "; keep one");
        }
      }
    }
    return firstLine;
  }

  /**
   * The line of a properties file a key is set on, for errors about the key.
   *
   * @param file the file, read before without error
   * @param key the key
   * @return the line, counted from 1; empty when the file does not set the key
   */
  public static Optional<Integer> lineOf(Path file, String key) {
    return Optional.ofNullable(keyLines(file).get(key));
  }

  /** Whether a line of a properties file goes on on the next: it ends with an odd number of backslashes. */
  private static boolean continues(String line) {
    int backslashes = 0;
    for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 1;
  }

  /**
   * Where a properties file holds a backslash-u escape that is not followed by four hexadecimal digits, the
   * one error {@link Properties#load(Reader)} reports without a line: {@code ", line N ('FRAGMENT')"}.
   */
  private static Optional<String> malformedEscape(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      return Optional.empty();
    }
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n);
      for (int i = 0; i < line.length(); i++) {
        if (line.charAt(i) != '\\') {
          continue;
        }
        if (i + 1 < line.length() && line.charAt(i + 1) == 'u'
            && !(i + 6 <= line.length() && line.substring(i + 2, i + 6).matches("[0-9a-fA-F]{4}"))) {
          return Optional.of(", line " + (n + 1) + " ('" + line.substring(i, Math.min(line.length(), i + 6)) + "')");
        }
        i++; // the escaped character
      }
    }
    return Optional.empty();
  }

  /** Where the first byte of a file that is not UTF-8 sits: {@code " (line N, byte B of the line: 0xHH)"}. */
  private static Optional<String> firstBadByte(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      return Optional.empty();
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CoderResult result = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(in, CharBuffer.allocate(bytes.length), true);
    if (!result.isError()) {
      return Optional.empty();
    }
    int at = in.position();
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < at; i++) {
      if (bytes[i] == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return Optional.of(String.format(Locale.ROOT, " (line %d, byte %d of the line: 0x%02X)", line, at - lineStart + 1,
        bytes[at] & 0xff));
  }
}
