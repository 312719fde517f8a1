package dev.transforms.cli.report;

import java.time.Duration;

/** What the pages the command line writes share: escaping, the style sheet, durations. */
public final class Html {

  private Html() {}

  /** The style sheet of every page, inline so that a page opens without network access. */
  public static final String STYLE = """
      body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
      h1 { font-size: 20px; margin: 0 0 8px; } h2 { font-size: 16px; margin: 18px 0 6px; }
      table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 3px 6px; text-align: left; vertical-align: top; }
      .SUCCEEDED:not(g) { background: #d8f0d8; } .FAILED:not(g) { background: #f8d0d0; }
      .SKIPPED:not(g) { background: #eee; } .UP_TO_DATE:not(g) { background: #d6ecf3; }
      .NONE:not(g) { background: #fff; }
      .muted { color: #777; } .error { color: #a00; white-space: pre-wrap; font-family: monospace; }
      .selected { outline: 3px solid #3060d0; }
      """;

  /**
   * Text made safe inside an element or a quoted attribute.
   *
   * @param text any text
   * @return the text with {@code & < > " '} escaped
   */
  public static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * A duration as seconds with two decimals, such as {@code 1.25s}.
   *
   * @param duration a duration
   * @return the text
   */
  public static String seconds(Duration duration) {
    return String.format(java.util.Locale.ROOT, "%.2fs", duration.toNanos() / 1e9);
  }
}
