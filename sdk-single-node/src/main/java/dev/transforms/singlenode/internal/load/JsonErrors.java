package dev.transforms.singlenode.internal.load;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.util.regex.Pattern;

/**
 * What is wrong with a line of a JSON lines file, in words for the person who wrote it. Jackson's own
 * messages name the input where the error sits as {@code [Source: REDACTED (`StreamReadFeature...`
 * disabled); line: 1, column: 1]}, which says nothing here: the load names the file and line itself.
 */
final class JsonErrors {

  /** Jackson's location of the input, with or without the "start marker at" before it. */
  private static final Pattern SOURCE = Pattern.compile("\\s*\\((?:start marker at )?\\[Source:[^\\]]*\\]\\)"
      + "|\\s*(?:at )?\\[Source:[^\\]]*\\]");

  private JsonErrors() {}

  /**
   * Why a line is not valid JSON: a line that ends inside a string or before its object is closed is
   * said to be cut short; any other error is Jackson's message without its location.
   *
   * @param error what the parser threw
   * @return the reason, without a file or line
   */
  static String describe(JsonProcessingException error) {
    String message = String.valueOf(error.getOriginalMessage());
    // Jackson throws JsonEOFException for most ends of input, but a plain JsonParseException after a comma
    // ("Unexpected end-of-input within/between Object entries").
    if (error instanceof JsonEOFException || message.startsWith("Unexpected end-of-input")) {
      JsonToken token = error instanceof JsonEOFException eof ? eof.getTokenBeingDecoded() : null;
      if (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME) {
        return "the line ends inside a JSON string: it was cut short, or a closing quote is missing";
      }
      JsonParser parser = error.getProcessor() instanceof JsonParser p ? p : null;
      JsonStreamContext context = parser == null ? null : parser.getParsingContext();
      if (context != null && context.inArray()) {
        return "the line ends before its JSON array is closed: it was cut short, or a ']' is missing";
      }
      return "the line ends before its JSON object is closed: it was cut short, or a '}' is missing";
    }
    return SOURCE.matcher(message).replaceAll("").strip();
  }
}
