package dev.transforms.cli;

import dev.transforms.api.TransformsException;
import dev.transforms.runtime.internal.build.CauseChain;
import dev.transforms.runtime.internal.catalog.SecretMasker;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;

/**
 * How an error that ended a command is printed: its message and every cause, one line each
 * ({@link CauseChain}), secrets masked; with {@code --verbose} the stack traces, without it a hint to use
 * {@code --verbose} when the error is not one the command expected. A usage error is printed as
 * {@link UsageErrors} prints it. The exit code is the error's ({@link ExitCodes#of}).
 */
final class CommandErrors {

  private CommandErrors() {}

  /** Prints an error that ended a command, and returns the exit code it means. */
  static int report(Exception error, PrintWriter err, boolean verbose) {
    if (error instanceof CommandLine.ParameterException usage) {
      return new UsageErrors().handleParseException(usage, new String[0]);
    }
    SecretMasker masker = SecretMasker.allLoaded();
    err.print(CauseChain.of(error, masker).format("error: ", "  "));
    if (verbose) {
      err.print(CauseChain.stackTrace(error, masker));
    } else if (!(error instanceof TransformsException) && !(error instanceof UncheckedIOException)) {
      err.println("  (not an error the command expected here: run it again with --verbose for the stack trace)");
    }
    err.flush();
    return ExitCodes.of(error);
  }
}
