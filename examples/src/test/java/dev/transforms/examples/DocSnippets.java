package dev.transforms.examples;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Turns the {@code java} blocks of the docs into compilation units, exactly as {@link DocBlocks}
 * directives say, and compiles them in one javac run against the test classpath (the SDK, Spark,
 * JUnit, the examples), with the SDK's annotation processor: a transform that breaks a rule is a
 * compile error here too. Errors point at the page and line of the block.
 */
final class DocSnippets {

  /** The repository's root, seen from the examples module. */
  static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
  private static final Pattern PUBLIC_TYPE = Pattern.compile(
      "(?m)^\\s*public\\s+(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)");

  private DocSnippets() {}

  /** The pages checked: the README and every page of docs/. */
  static List<Path> pages() {
    List<Path> pages = new ArrayList<>();
    pages.add(REPO.resolve("README.md"));
    try (Stream<Path> docs = Files.list(REPO.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  /**
   * A compilation unit made from one block.
   *
   * @param block the block
   * @param packageName the unit's package
   * @param typeName the name its file must have
   * @param text the unit's source
   * @param lines for each line of the source, the page's line it comes from
   */
  record Unit(DocBlocks.Block block, String packageName, String typeName, String text, int[] lines) {

    JavaFileObject source() {
      URI uri = URI.create("string:///" + packageName.replace('.', '/') + "/" + typeName + ".java");
      return new SimpleJavaFileObject(uri, JavaFileObject.Kind.SOURCE) {
        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
          return text;
        }
      };
    }
  }

  /**
   * The unit of a java block.
   *
   * @param block the block
   * @param number a number unique among the units, for the package of a unit that declares none
   * @return the unit
   * @throws AssertionError if the block is a fragment without a template
   */
  static Unit unit(DocBlocks.Block block, int number) {
    String text;
    int[] lines;
    if (block.template().isPresent()) {
      DocBlocks.Template template = block.template().get();
      List<String> templateLines = template.text().lines().toList();
      List<String> blockLines = block.text().lines().toList();
      List<String> all = new ArrayList<>();
      List<Integer> origin = new ArrayList<>();
      for (int i = 0; i < templateLines.size(); i++) {
        if (templateLines.get(i).strip().equals(DocBlocks.MARKER)) {
          String indent = templateLines.get(i).substring(0, templateLines.get(i).indexOf(DocBlocks.MARKER));
          for (int j = 0; j < blockLines.size(); j++) {
            all.add(indent + blockLines.get(j));
            origin.add(block.firstLine() + j);
          }
        } else {
          all.add(templateLines.get(i));
          origin.add(template.definedAt() + i);
        }
      }
      text = String.join("\n", all) + "\n";
      lines = origin.stream().mapToInt(Integer::intValue).toArray();
    } else {
      String code = block.text();
      boolean wholeFile = code.lines().map(String::strip)
          .filter(l -> !l.isEmpty() && !l.startsWith("//") && !l.startsWith("/*") && !l.startsWith("*"))
          .findFirst().map(l -> l.startsWith("package ") || l.startsWith("import ")).orElse(false);
      if (!wholeFile && !block.directive().filter("file"::equals).isPresent()) {
        throw new AssertionError(block.where() + ": a java fragment needs a wrapper: <!-- java: NAME --> (NAME "
            + "defined above by <!-- java-template NAME ... -->) or an inline <!-- java ... --> before it");
      }
      text = code;
      lines = new int[(int) code.lines().count()];
      for (int i = 0; i < lines.length; i++) {
        lines[i] = block.firstLine() + i;
      }
    }
    Matcher declared = PACKAGE.matcher(text);
    String packageName;
    if (declared.find()) {
      packageName = declared.group(1);
    } else {
      // Its own package per fragment, so that two pages may both show a class Example. On the first
      // line, so that line numbers stay those of the source.
      packageName = "docs." + block.page().getFileName().toString().replace(".md", "").replaceAll("[^A-Za-z0-9]", "_")
          .toLowerCase(Locale.ROOT) + ".b" + number;
      text = "package " + packageName + "; " + text;
    }
    Matcher type = PUBLIC_TYPE.matcher(text);
    String typeName = type.find() ? type.group(1) : "Snippet";
    return new Unit(block, packageName, typeName, text, lines);
  }

  /**
   * Compiles units together.
   *
   * @param units the units
   * @param output where the classes (and the transform index) go
   * @return one line per error, {@code PAGE:LINE: message}; empty when all compile
   */
  static List<String> compile(List<Unit> units, Path output) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
        StandardCharsets.UTF_8)) {
      files.setLocation(StandardLocation.CLASS_OUTPUT, List.of(output.toFile()));
      List<String> options = List.of("--release", "17", "-parameters", "-implicit:class", "-Xlint:none",
          "-classpath", classpath(), "-processor", "dev.transforms.runtime.internal.discovery.TransformProcessor");
      boolean ok = javac.getTask(null, files, diagnostics, options, null,
          units.stream().map(Unit::source).toList()).call();
      List<String> errors = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
        if (diagnostic.getKind() != Diagnostic.Kind.ERROR) {
          continue;
        }
        errors.add(locate(units, diagnostic) + ": " + diagnostic.getMessage(Locale.ROOT));
      }
      if (!ok && errors.isEmpty()) {
        errors.add("javac failed without an error message");
      }
      return errors;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String locate(List<Unit> units, Diagnostic<? extends JavaFileObject> diagnostic) {
    if (diagnostic.getSource() == null) {
      return "javac";
    }
    for (Unit unit : units) {
      if (unit.source().toUri().equals(diagnostic.getSource().toUri())) {
        int line = (int) diagnostic.getLineNumber() - 1;
        int pageLine = line >= 0 && line < unit.lines().length ? unit.lines()[line] : unit.block().firstLine();
        return REPO.relativize(unit.block().page()) + ":" + pageLine;
      }
    }
    return diagnostic.getSource().getName();
  }

  /** The test classpath: Surefire's, with the jars a manifest-only booter jar lists. */
  static String classpath() {
    String surefire = System.getProperty("surefire.test.class.path");
    if (surefire != null && !surefire.isBlank()) {
      return surefire;
    }
    List<String> entries = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      entries.add(entry);
      if (entry.endsWith(".jar")) {
        try (JarFile jar = new JarFile(entry)) {
          Manifest manifest = jar.getManifest();
          String listed = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
          if (listed != null) {
            for (String url : listed.split(" ")) {
              if (!url.isBlank()) {
                entries.add(Path.of(URI.create(url)).toString());
              }
            }
          }
        } catch (IOException | IllegalArgumentException e) {
          // Not a manifest-only jar.
        }
      }
    }
    return String.join(File.pathSeparator, entries);
  }
}
