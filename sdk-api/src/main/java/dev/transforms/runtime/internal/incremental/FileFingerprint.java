package dev.transforms.runtime.internal.incremental;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A fingerprint of the files of a file dataset ({@code @Input}): the relative name, size and last
 * modification time of every regular file under its folder (following the link a file output
 * publishes). Files whose names start with {@code .} or {@code _} (checksums, markers such as
 * {@code _SUCCESS}) are left out. Contents are not read: a file rewritten with the same size and the
 * same modification time is not told apart, which copies and writes that keep times (rare) would need.
 */
public final class FileFingerprint {

  private FileFingerprint() {}

  /**
   * The fingerprint of a folder's files.
   *
   * @param folder the dataset's folder (or a single file)
   * @return a short hex digest; {@code none} when the folder does not exist
   */
  public static String of(Path folder) {
    if (!Files.exists(folder)) {
      return "none";
    }
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    Path root = folder.toAbsolutePath();
    try (Stream<Path> walk = Files.walk(root, java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
      List<Path> files = walk.filter(Files::isRegularFile).filter(f -> !hidden(root.relativize(f))).sorted().toList();
      for (Path file : files) {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        String line = root.relativize(file) + "\t" + attributes.size() + "\t"
            + attributes.lastModifiedTime().toMillis() + "\n";
        digest.update(line.getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of " + folder + ": " + e.getMessage(), e);
    }
    return HexFormat.of().formatHex(digest.digest(), 0, 12);
  }

  private static boolean hidden(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.startsWith(".") || name.startsWith("_")) {
        return true;
      }
    }
    return false;
  }
}
