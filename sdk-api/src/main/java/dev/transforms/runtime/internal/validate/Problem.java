package dev.transforms.runtime.internal.validate;

import java.util.OptionalInt;

/**
 * One rule a transform method breaks.
 *
 * @param parameterIndex the parameter at fault, or empty when the method itself is
 * @param message the message, naming the class, method and parameter, and the fix
 */
public record Problem(OptionalInt parameterIndex, String message) {

  static Problem onMethod(String message) {
    return new Problem(OptionalInt.empty(), message);
  }

  static Problem onParameter(int index, String message) {
    return new Problem(OptionalInt.of(index), message);
  }
}
