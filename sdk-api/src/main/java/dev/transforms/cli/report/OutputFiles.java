package dev.transforms.cli.report;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/** Checks made before a command does any work, on a file it is asked to write. */
public final class OutputFiles {

  private OutputFiles() {}

  /**
   * Fails with a usage error naming the option when a file cannot be written: its folder is missing
   * or read-only, or it is a folder or a read-only file.
   *
   * @param line the command line, for the usage error
   * @param option the option that named the file, such as {@code --report}
   * @param file the file
   * @throws CommandLine.ParameterException if the file cannot be written
   */
  public static void checkWritable(CommandLine line, String option, Path file) {
    Path folder = file.toAbsolutePath().getParent();
    String why = Files.isDirectory(file) ? "it is a folder"
        : folder == null || !Files.isDirectory(folder) ? "its folder " + folder + " does not exist"
        : Files.exists(file) ? (Files.isWritable(file) ? null : "it is read-only")
        : Files.isWritable(folder) ? null : "its folder " + folder + " is read-only";
    if (why != null) {
      throw new CommandLine.ParameterException(line, "Cannot write " + option + " " + file + ": " + why);
    }
  }
}
