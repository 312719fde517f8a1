package dev.transforms.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced code blocks of a Markdown page, with the directives (HTML comments, invisible once
 * rendered) that say what the docs check does with each one:
 * <ul>
 *   <li>{@code <!-- file: PATH -->}: the block is a file of the page's project, written at PATH (a
 *       {@code java} block is then a whole compilation unit);
 *   <li>{@code <!-- java-template NAME ... -->}, on lines of its own: defines the Java code that wraps
 *       a fragment, with a line {@code <<block>>} where the fragment goes; used by the blocks after it
 *       that say {@code <!-- java: NAME -->};
 *   <li>{@code <!-- java ... -->}: an inline template for the one block that follows;
 *   <li>{@code <!-- run: demo -->} or {@code <!-- run: project -->}: a shell block whose
 *       {@code ./transforms} lines are run, on the demo warehouse or in the project the page's files
 *       make;
 *   <li>{@code <!-- output -->}: the standard output the run block before it prints; a line {@code ...}
 *       stands for any lines, and {@code ...} inside a line for any text.
 * </ul>
 * A {@code java} block without a directive must be a whole compilation unit (it starts with
 * {@code package} or {@code import}).
 */
final class DocBlocks {

  /** The marker a template's fragment goes in place of. */
  static final String MARKER = "<<block>>";

  private static final Pattern FENCE = Pattern.compile("^(\\s*)```\\s*([A-Za-z0-9_+-]*)\\s*$");
  private static final Pattern DIRECTIVE = Pattern.compile("^\\s*<!--\\s*(file|java|run|output)\\s*:?\\s*(.*?)\\s*-->\\s*$");

  /**
   * One fenced block.
   *
   * @param page the page
   * @param language the fence's language, possibly empty
   * @param text the block's lines, without the fences and the fence's indentation
   * @param firstLine the page's line of the block's first line, from 1
   * @param directive the directive before it ({@code file}, {@code java}, {@code run}, {@code output}), if any
   * @param argument what follows the directive's name: a path, a template name, a run setting
   * @param template the template that wraps a java fragment, resolved, if any
   */
  record Block(Path page, String language, String text, int firstLine, Optional<String> directive, String argument,
      Optional<Template> template) {

    String where() {
      return page.getFileName() + ":" + firstLine;
    }
  }

  /**
   * The code that wraps a fragment.
   *
   * @param name the template's name, or {@code inline}
   * @param text the template, with a line {@link #MARKER}
   * @param definedAt the page's line of the template's first line
   */
  record Template(String name, String text, int definedAt) {}

  private DocBlocks() {}

  static List<Block> read(Path page) {
    List<String> lines;
    try {
      lines = Files.readAllLines(page);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Template> templates = new LinkedHashMap<>();
    List<Block> blocks = new ArrayList<>();
    String directive = null;
    String argument = "";
    Template inline = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      String stripped = line.strip();
      if (stripped.startsWith("<!-- java-template ") || stripped.equals("<!-- java")) {
        boolean named = stripped.startsWith("<!-- java-template ");
        String name = named ? stripped.substring("<!-- java-template ".length()).strip() : "inline";
        StringBuilder text = new StringBuilder();
        int start = i + 2;
        i++;
        while (i < lines.size() && !lines.get(i).strip().equals("-->")) {
          text.append(lines.get(i)).append('\n');
          i++;
        }
        if (i == lines.size()) {
          throw new IllegalStateException(page + ":" + (start - 1) + ": the template is not closed with a line -->");
        }
        Template template = new Template(name, text.toString(), start);
        if (!text.toString().contains(MARKER)) {
          throw new IllegalStateException(page + ":" + (start - 1) + ": template " + name + " has no line " + MARKER);
        }
        if (named) {
          templates.put(name, template);
        } else {
          directive = "java";
          argument = "inline";
          inline = template;
        }
        continue;
      }
      Matcher comment = DIRECTIVE.matcher(line);
      if (comment.matches()) {
        directive = comment.group(1);
        argument = comment.group(2);
        inline = null;
        continue;
      }
      Matcher fence = FENCE.matcher(line);
      if (fence.matches()) {
        String indent = fence.group(1);
        String language = fence.group(2);
        StringBuilder text = new StringBuilder();
        int first = i + 2;
        i++;
        while (i < lines.size() && !lines.get(i).strip().equals("```")) {
          String body = lines.get(i);
          text.append(body.startsWith(indent) ? body.substring(indent.length()) : body.stripLeading()).append('\n');
          i++;
        }
        Optional<Template> template = Optional.empty();
        if ("java".equals(directive)) {
          if (inline != null) {
            template = Optional.of(inline);
          } else {
            Template named = templates.get(argument);
            if (named == null) {
              throw new IllegalStateException(page + ":" + (first - 1) + ": <!-- java: " + argument + " --> names no "
                  + "template defined above it; define one with <!-- java-template " + argument + " ... -->");
            }
            template = Optional.of(named);
          }
        }
        blocks.add(new Block(page, language, text.toString(), first, Optional.ofNullable(directive), argument,
            template));
        directive = null;
        argument = "";
        inline = null;
        continue;
      }
      if (!stripped.isEmpty()) {
        // A directive applies to the block right after it, blank lines aside.
        directive = null;
        argument = "";
        inline = null;
      }
    }
    return blocks;
  }
}
