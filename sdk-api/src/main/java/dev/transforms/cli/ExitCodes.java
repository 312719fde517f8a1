package dev.transforms.cli;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.EngineNotFoundException;
import dev.transforms.api.InvalidLoadException;
import dev.transforms.api.InvalidPathException;
import dev.transforms.api.InvalidTransformException;
import dev.transforms.api.MaintenanceRefusedException;
import dev.transforms.api.PlanException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The exit codes of the {@code transforms} command line: one per kind of outcome, the same for every
 * command. {@code docs/cli.md} prints {@link #KINDS}, and every command's {@code --help} lists the
 * codes ({@link #usageList()}).
 *
 * <ul>
 *   <li>{@value #OK}: done (also {@code --help}, {@code --version}).
 *   <li>{@value #FAILED}: the command ran and its work failed: a transform, rows that do not fit, a table
 *       that cannot be read or written, another writer meanwhile.
 *   <li>{@value #REFUSED}: refused before anything changed: the command line, a file or table that does
 *       not exist or is not what it should be, the configuration, transform definitions, a safety rule.
 * </ul>
 */
public final class ExitCodes {

  /** Done. */
  public static final int OK = 0;
  /** The command ran and its work failed, or only part of it was done. */
  public static final int FAILED = 1;
  /** Refused before anything changed. */
  public static final int REFUSED = 2;

  /**
   * One kind of outcome, with its code and an example of a command that ends with it.
   *
   * @param code the exit code
   * @param kind what happened
   * @param example a command line that ends this way, or what it prints
   */
  public record Kind(int code, String kind, String example) {}

  /** Every kind of outcome, by code, in the order the documentation lists them. */
  public static final List<Kind> KINDS = List.of(
      new Kind(OK, "done; also `--help`, `--version` and `completion`", "`transforms build`"),
      new Kind(FAILED, "a transform failed, or was skipped because one upstream of it failed",
          "`transforms build` with a transform that throws"),
      new Kind(FAILED, "rows of a file do not fit their columns (nothing is loaded)",
          "`transforms load /Shop/raw/orders bad.csv --mode append`"),
      new Kind(FAILED, "a table or file that exists cannot be read or written (a deleted metadata file, a full disk)",
          "`transforms show /Shop/orders` after its metadata file was deleted"),
      new Kind(FAILED, "another writer changed a table while the command ran; nothing of this command is published",
          "two `transforms load --mode append` of one table at once"),
      new Kind(FAILED, "several tables were handled and some failed after others were done",
          "`transforms maintain --all` with one table held by a running build"),
      new Kind(REFUSED, "the command line: an unknown command or option, a missing or invalid value, options that "
          + "exclude each other", "`transforms build --fast`, `transforms maintain /t --retain-last 0`"),
      new Kind(REFUSED, "a file, table or branch named on the command line does not exist, or is not what it "
          + "should be (not UTF-8, not gzip, not Parquet, a header that does not match the columns)",
          "`transforms show /Shop/nothing`, `transforms promote no-such-branch`, "
          + "`transforms load /Shop/t latin1.csv --schema ...`"),
      new Kind(REFUSED, "the configuration: an unknown key, an invalid value, an unset `${VAR}`, a catalog that "
          + "cannot be started or written", "`advisories=loud` in transforms.properties"),
      new Kind(REFUSED, "transform definitions and the plan: an invalid transform, a cycle, an unknown transform name",
          "`transforms build NoSuch.transform`"),
      new Kind(REFUSED, "a safety rule of maintenance or loading: a running build holds the table, a retention under "
          + "three days, `--mode create` on a table that exists", "`transforms maintain /t --orphans-older-than 1h`"));

  private ExitCodes() {}

  /**
   * The exit code an error that ended a command means: {@value #REFUSED} for the errors raised before
   * anything changed (usage, configuration, definitions, a missing table, a file that cannot be read as
   * its format, a safety rule), {@value #FAILED} for every other.
   *
   * @param error the error
   * @return the exit code
   */
  public static int of(Throwable error) {
    boolean refused = error instanceof CommandLine.ParameterException
        || error instanceof ConfigurationException
        || error instanceof InvalidTransformException
        || error instanceof PlanException
        || error instanceof InvalidPathException
        || error instanceof InvalidLoadException
        || error instanceof DatasetNotFoundException
        || error instanceof EngineNotFoundException
        || error instanceof MaintenanceRefusedException;
    return refused ? REFUSED : FAILED;
  }

  /**
   * The codes as a command's help lists them.
   *
   * @return code to description, in order
   */
  public static Map<String, String> usageList() {
    Map<String, String> list = new LinkedHashMap<>();
    list.put(Integer.toString(OK), "Done.");
    list.put(Integer.toString(FAILED), "The work failed: a transform, rows that do not fit, a table that cannot be "
        + "read or written, another writer meanwhile.");
    list.put(Integer.toString(REFUSED), "Refused before anything changed: usage, a missing table or file, a file "
        + "that is not what it should be, the configuration, transform definitions, a safety rule.");
    return list;
  }
}
