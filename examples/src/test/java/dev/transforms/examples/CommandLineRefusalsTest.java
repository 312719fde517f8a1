package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.transforms.cli.TransformsCli;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.publish.BuildLease;
import dev.transforms.runtime.internal.publish.StagingMarks;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The command line as a hostile new user types it: more than a hundred bad inputs to every command
 * (load, maintain, health, show, build, plan, list, graph, completion, the configuration, the global
 * options), each on a fresh copy of one warehouse, the way {@code ./transforms} runs them. Each case
 * checks the exit code (one per kind of failure, {@link dev.transforms.cli.ExitCodes}), the words of the
 * message (the option, file, line or key at fault, and where a configuration value was set), that no
 * raw Java error or stack trace is printed, and that every file below the working directory is byte for
 * byte what it was: no folder, no metadata version, no catalog row added.
 *
 * <p>The cases run in this JVM through {@link TransformsCli#execute}, with the same handlers as the real
 * command line; {@link #theLauncherScriptRefusesTheSameWay} runs a handful through the real
 * {@code transforms} script in a JVM of their own. A new command should add its own rows here.
 *
 * <p>Kept out of the byte-for-byte rule, marked {@link Case#failsAfterStaging}: loads into an existing
 * table that fail on a row only reading every row finds. They stage before reading, so the table gains
 * metadata versions (its staging branch, cut and removed). A load into a new table that fails the same
 * way leaves nothing: the table exists in the load's process only until it is published. For the marked
 * cases, and for every other case too, what a reader sees is compared: the tables, and each one's
 * snapshot of main, schema, spec, properties and branches.
 */
class CommandLineRefusalsTest {

  /** Where every case runs: a fresh copy of {@link #template} each time, at the same absolute path. */
  private static Path work;
  /** The warehouse and files every case starts from. */
  private static Path template;
  private static Path root;

  /** One bad input: what to set up, what to run, and what must come out. */
  record Case(String name, int exit, List<String> args, Map<String, String> environment, Setup setup,
      List<String> expected, boolean untilPublishChange) {
    @Override
    public String toString() {
      return name;
    }

    Case env(String variable, String value) {
      Map<String, String> environment = new LinkedHashMap<>(this.environment);
      environment.put(variable, value);
      return new Case(name, exit, args, environment, setup, expected, untilPublishChange);
    }

    Case setup(Setup more) {
      Setup first = setup;
      return new Case(name, exit, args, environment, dir -> {
        first.prepare(dir);
        more.prepare(dir);
      }, expected, untilPublishChange);
    }

    Case config(String... lines) {
      return setup(dir -> Files.writeString(dir.resolve("transforms.properties"), String.join("\n", lines) + "\n"));
    }

    Case file(String name, String content) {
      return setup(dir -> {
        Files.createDirectories(dir.resolve(name).toAbsolutePath().getParent());
        Files.writeString(dir.resolve(name), content);
      });
    }

    Case bytes(String name, byte[] content) {
      return setup(dir -> Files.write(dir.resolve(name), content));
    }

    /** A load that fails only after staging: see the class comment. */
    Case failsAfterStaging() {
      return new Case(name, exit, args, environment, setup, expected, true);
    }
  }

  /** Prepares the working directory of a case before its files are recorded. */
  interface Setup {
    void prepare(Path dir) throws IOException;
  }

  private static Case refused(String name, List<String> args, String... expected) {
    return new Case(name, 2, args, Map.of(), dir -> {}, List.of(expected), false);
  }

  private static Case failed(String name, List<String> args, String... expected) {
    return new Case(name, 1, args, Map.of(), dir -> {}, List.of(expected), false);
  }

  private static List<String> args(String... args) {
    return List.of(args);
  }

  private static final String ORDERS = "/Shop/raw/orders";
  private static final String COLUMNS = "order_id long not null, amount decimal(10,2), status string";

  static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    // The command line itself.
    cases.addAll(List.of(
        refused("no command", args(), "Usage: transforms", "Commands:"),
        refused("unknown command", args("frobnicate"), "Unknown command 'frobnicate'; the commands are list, plan",
            "Run 'transforms --help'"),
        refused("misspelled command", args("buidl"), "Unknown command 'buidl'", "Did you mean: transforms build?"),
        refused("unknown global option", args("--fast", "list"), "Unknown option: '--fast'"),
        refused("unknown option of build", args("build", "--fast"), "Unknown option: '--fast'",
            "Usage: transforms build [OPTIONS]", "Run 'transforms build --help'"),
        refused("option of another command", args("plan", "--report", "x.html"), "Unknown option: '--report'",
            "--report is an option of transforms build", "Usage: transforms plan"),
        refused("--config without a value", args("--config"), "Missing required parameter for option '--config'"),
        refused("--config without a value after the command", args("plan", "--config"),
            "Missing required parameter for option '--config'", "Usage: transforms plan"),
        refused("empty --config", args("--config", "", "plan"),
            "Invalid value for option '--config': the value is empty"),
        refused("empty --warehouse after the command", args("plan", "--warehouse", ""),
            "Invalid value for option '--warehouse': the value is empty"),
        refused("empty --class", args("--class", "", "list"), "--class '' holds an empty class name"),
        refused("empty name inside --class", args("list", "--class", "a,,b"), "--class 'a,,b' holds an empty class name"),
        refused("--verbose with a value", args("--verbose=yes", "list"),
            "Invalid value for option '--verbose': 'yes' is not a boolean"),
        refused("help of an unknown command", args("help", "nope"), "Unknown subcommand 'nope'"),
        refused("--version after a command", args("build", "--version"), "Unknown option: '--version'"),
        refused("completion with an argument", args("completion", "fish"), "Unmatched argument", "'fish'",
            "Usage: transforms completion")));
    // The configuration: each error names the key and where its value was set.
    cases.addAll(List.of(
        refused("missing --config file", args("--config", "missing.properties", "plan"),
            "Configuration file {dir}/missing.properties does not exist"),
        refused("missing --config file after the command", args("plan", "--config", "team.properties"),
            "Configuration file {dir}/team.properties does not exist"),
        refused("--config naming a folder", args("plan", "--config", "seeds"), "Configuration file {dir}/seeds is a folder"),
        refused("unknown key", args("plan"), "Unknown configuration key 'colour' in file {dir}/transforms.properties, line ")
            .config("colour=blue"),
        refused("unknown advisory level", args("plan"), "Configuration key 'advisories' is 'loud'",
            "(set by file {dir}/transforms.properties)").config("advisories=loud"),
        refused("advisory level from the environment", args("plan"), "Configuration key 'advisories' is 'loud'",
            "(set by environment variable TRANSFORMS_ADVISORIES)")
            .config("advisories=warn").env("TRANSFORMS_ADVISORIES", "loud"),
        refused("unknown advisory option", args("plan"), "Unknown configuration key 'advisories.colour'")
            .config("advisories.colour=blue"),
        refused("advisory threshold out of range", args("plan"), "'advisories.small-files.fraction'",
            "(set by file {dir}/transforms.properties)").config("advisories.small-files.fraction=2"),
        refused("unset reference", args("plan"), "Configuration key 'catalog.prod.token' (set by file "
            + "{dir}/transforms.properties) references ${MISSING_TOKEN}, which is not set")
            .config("catalog.prod.type=rest", "catalog.prod.token=${MISSING_TOKEN}", "mount./=prod"),
        refused("unterminated reference", args("plan"), "Configuration key 'warehouse' (set by file "
            + "{dir}/transforms.properties) has an unterminated reference '${WH'").config("warehouse=${WH/x"),
        refused("invalid reference", args("plan"), "invalid reference starting '${9LIVES'").config("warehouse=${9LIVES}"),
        refused("malformed unicode escape", args("plan"),
            "Cannot read configuration file {dir}/transforms.properties, line 2 ('\\uZZZZ')")
            .config("# team settings", "warehouse=\\uZZZZ"),
        refused("configuration that is not UTF-8", args("plan"),
            "{dir}/transforms.properties: it is not UTF-8 text (line 2, byte 3 of the line: 0xFF)")
            .bytes("transforms.properties", new byte[] {'#', '\n', 'w', '=', (byte) 0xff, (byte) 0xfe}),
        refused("empty warehouse key", args("plan"),
            "The warehouse folder is empty (set by file {dir}/transforms.properties)").config("warehouse="),
        refused("empty warehouse from the environment", args("plan"),
            "The warehouse folder is empty (set by environment variable TRANSFORMS_WAREHOUSE)")
            .env("TRANSFORMS_WAREHOUSE", ""),
        refused("empty files.root", args("plan"), "Configuration key 'files.root' is empty (set by file")
            .config("files.root="),
        refused("catalog without a type", args("plan"), "Catalog 'prod' has neither catalog.prod.type")
            .config("catalog.prod.uri=http://127.0.0.1:1", "mount./=prod"),
        refused("unknown catalog type", args("plan"),
            "Catalog 'prod' has type 'bogus' (set by file {dir}/transforms.properties)")
            .config("catalog.prod.type=bogus", "mount./=prod"),
        refused("unknown catalog type from the environment", args("show", ORDERS),
            "Catalog 'local' has type 'bogus' (set by environment variable TRANSFORMS_CATALOG_LOCAL_TYPE)")
            .env("TRANSFORMS_CATALOG_LOCAL_TYPE", "bogus"),
        refused("catalog class not on the classpath", args("plan"), "Catalog 'prod' needs class com.example.Cat",
            "not on the classpath").config("catalog.prod.catalog-impl=com.example.Cat", "mount./=prod"),
        refused("mount of an undefined catalog", args("plan"), "Mount '/Shop' names catalog 'nowhere'")
            .config("mount./Shop=nowhere"),
        refused("relative mount prefix", args("plan"), "Mount prefix of 'mount.Shop' is not a valid path")
            .config("mount.Shop=local"),
        refused("zero DuckDB threads", args("plan"), "Configuration key 'duckdb.threads' (set by file "
            + "{dir}/transforms.properties) must be a positive whole number").config("duckdb.threads=0"),
        refused("unknown DuckDB key", args("plan"), "Unknown configuration key 'duckdb.colour'")
            .config("duckdb.colour=red"),
        refused("policy with an unknown option", args("maintain", "--all"),
            "Configuration key 'maintain./Shop.olderthan' must be maintain.PREFIX.OPTION",
            "(set by file {dir}/transforms.properties)").config("maintain./Shop.olderthan=5d"),
        refused("policy with an unknown action", args("maintain", "--all"),
            "actions: unknown action 'vacuum'", "(key 'maintain./Shop.actions', set by file {dir}/transforms.properties)")
            .config("maintain./Shop.actions=compact,vacuum"),
        refused("policy with a bad age", args("maintain", "--all"), "older-than 'garbage' is not an age",
            "(key 'maintain./Shop.older-than', set by file").config("maintain./Shop.older-than=garbage"),
        refused("policy that relaxes the orphan retention", args("maintain", "--all"),
            "orphans-older-than '1h' is under 3 days, and a policy cannot relax that safety rule",
            "key 'maintain./Shop.orphans-older-than'").config("maintain./Shop.orphans-older-than=1h"),
        refused("policy with a retention of zero", args("maintain", "--all"), "retain-last '0' must be at least 1")
            .config("maintain./Shop.retain-last=0"),
        refused("policy prefix that is no path", args("maintain", "--all"),
            "Configuration key 'maintain.Shop.older-than' has the prefix 'Shop'").config("maintain.Shop.older-than=7d")));
    // Transforms and the plan.
    cases.addAll(List.of(
        refused("unknown transform to build", args("build", "NoSuch.transform"), "No transform is named NoSuch.transform"),
        refused("unknown transform to plan", args("plan", "nope"), "No transform is named nope"),
        refused("class not on the classpath", args("--class", "no.such.Type", "list"),
            "Transform class no.such.Type is not on the classpath"),
        refused("class not on the classpath, after the command", args("list", "--class", "no.such.Type"),
            "Transform class no.such.Type is not on the classpath"),
        refused("class without transforms", args("plan", "--class", "java.lang.String"),
            "Class java.lang.String has no @Transform method"),
        refused("build with a configuration error", args("build", "--config", "bad.properties"),
            "Unknown configuration key 'colour'").file("bad.properties", "colour=blue\n"),
        refused("build page in a missing folder", args("build", "--report", "nowhere/build.html"),
            "Cannot write --report {dir}/nowhere/build.html: its folder {dir}/nowhere does not exist",
            "Usage: transforms build [OPTIONS]"),
        refused("build page that is a folder", args("build", "--report", "seeds"), "Cannot write --report {dir}/seeds: "
            + "it is a folder", "Run 'transforms build --help'"),
        refused("empty build page", args("build", "--report", ""), "Invalid value for option '--report': the value is "
            + "empty"),
        refused("no threads", args("build", "--threads", "0"), "Invalid value for option '--threads': '0' is not a "
            + "whole number from 1 to 256", "Usage: transforms build [OPTIONS]"),
        refused("threads that are not a number", args("build", "--threads", "many"),
            "Invalid value for option '--threads': 'many' is not a whole number from 1 to 256"),
        refused("too many threads in the configuration", args("build"), "Configuration key 'build.threads' (set by "
            + "file {dir}/transforms.properties) must be a whole number from 1 to 256, not '1000'")
            .config("build.threads=1000"),
        refused("memory budget without a unit", args("build"), "Configuration key 'singlenode.memory-limit' (set by "
            + "file {dir}/transforms.properties) must be a size of at least 16m, such as 512m, 8g or 40%")
            .config("singlenode.memory-limit=4096")));
    // show and health.
    cases.addAll(List.of(
        refused("show without a path", args("show"), "Missing required parameter: 'PATH'", "Usage: transforms show"),
        refused("show with a relative path", args("show", "Shop/raw/orders"), "Invalid dataset path 'Shop/raw/orders'",
            "not absolute"),
        refused("show with ..", args("show", "/Shop/../orders"), "Invalid dataset path '/Shop/../orders'"),
        refused("show with an empty path", args("show", ""), "Invalid dataset path ''"),
        refused("show of a table that does not exist", args("show", "/Shop/raw/nothing"),
            "No table at /Shop/raw/nothing (`local`.`Shop`.`raw`.`nothing`)"),
        refused("show of a path without a folder", args("show", "/orders"), "'/orders' resolves to no namespace"),
        refused("show of a folder with a dot", args("show", "/a.b/t"), "folder 'a.b' with a '.'"),
        refused("show with two paths", args("show", ORDERS, "/Shop/ref/regions"), "Unmatched argument",
            "/Shop/ref/regions"),
        refused("show in a warehouse with no catalog yet", args("show", ORDERS, "--warehouse", "elsewhere"),
            "No table at /Shop/raw/orders", "catalog 'local' has no database yet ({dir}/elsewhere/catalog.db)"),
        failed("show of a table whose metadata file was deleted", args("show", ORDERS),
            "Cannot read table /Shop/raw/orders", "NotFoundException").setup(CommandLineRefusalsTest::deleteMetadata),
        refused("health without a path", args("health"), "Missing required parameter: 'PATH'"),
        refused("health of a table that does not exist", args("health", "/Shop/raw/nothing"),
            "No table at /Shop/raw/nothing"),
        refused("health goes on after a missing table", args("health", ORDERS, "/Shop/raw/nothing", "/Shop/ref/regions"),
            "/Shop/raw/orders (`local`.`Shop`.`raw`.`orders`)", "No table at /Shop/raw/nothing",
            "/Shop/ref/regions (`local`.`Shop`.`ref`.`regions`)", "recommendations"),
        refused("health with a relative path", args("health", "orders"), "Invalid dataset path 'orders'"),
        refused("health with an unknown option", args("health", ORDERS, "--deep"), "Unknown option: '--deep'",
            "Usage: transforms health")));
    // maintain.
    List<String> maintain = args("maintain", ORDERS);
    cases.addAll(List.of(
        refused("maintain without a table", args("maintain"), "Name the tables to maintain"),
        refused("maintain --all with a table", args("maintain", "--all", ORDERS),
            "--all maintains the tables that policies cover: leave out PATH"),
        refused("maintain --all with options it would ignore",
            args("maintain", "--all", "--older-than", "garbage", "--retain-last", "0", "--compact"),
            "--all maintains each table with the options of its policy, so it takes no --compact, --older-than, "
                + "--retain-last", "maintain./Shop.older-than=7d").config("maintain./Shop.actions=expire"),
        refused("maintain --all allowed to delete young files", args("maintain", "--all",
                "--allow-deleting-files-of-running-writes"),
            "takes no --allow-deleting-files-of-running-writes; a policy cannot relax a safety rule")
            .config("maintain./Shop.actions=remove-orphans"),
        refused("age that is not one", with(maintain, "--expire", "--older-than", "garbage"),
            "--older-than 'garbage' is not an age; write 5d"),
        refused("age of 999999999999 days", with(maintain, "--expire", "--older-than", "999999999999d"),
            "--older-than '999999999999d' is more than 36500 days"),
        refused("age beyond a long", with(maintain, "--orphans-older-than", "99999999999999999999d"),
            "--orphans-older-than '99999999999999999999d' is not an age"),
        refused("negative age", with(maintain, "--older-than", "-5d"), "--older-than '-5d' is negative"),
        refused("retain none", with(maintain, "--retain-last", "0"), "--retain-last must be at least 1, was 0"),
        refused("retain a word", with(maintain, "--retain-last", "ten"),
            "Invalid value for option '--retain-last': 'ten' is not an int"),
        refused("orphan retention of an hour", with(maintain, "--remove-orphans", "--orphans-older-than", "1h"),
            "Refusing to remove orphan files of /Shop/raw/orders (`local`.`Shop`.`raw`.`orders`) younger than 3 days",
            "--allow-deleting-files-of-running-writes", "Nothing was deleted"),
        refused("scheme pair without =", with(maintain, "--equal-scheme", "s3a"),
            "--equal-scheme 's3a' must be LISTED=METADATA"),
        refused("unknown engine", with(maintain, "--engine", "turbo"),
            "No maintenance engine 'turbo' (--engine) exists; use single-node or spark (on the classpath: "),
        refused("metadata setting that is not a boolean", with(maintain, "--metadata-delete-after-commit", "maybe"),
            "Invalid value for option '--metadata-delete-after-commit': 'maybe' is not a boolean"),
        refused("no previous metadata versions", with(maintain, "--metadata-previous-versions", "0"),
            "--metadata-previous-versions must be at least 1, was 0"),
        refused("maintain a table that does not exist", args("maintain", "/Shop/raw/nothing"),
            "No table at /Shop/raw/nothing"),
        refused("maintain two tables, the second missing", args("maintain", ORDERS, "/Shop/raw/nothing", "--compact",
                "--expire", "--older-than", "0s"), "No table at /Shop/raw/nothing"),
        refused("maintain a table a running build writes", with(maintain, "--compact"),
            "Refusing to maintain /Shop/raw/orders", "is writing it", "Nothing was changed")
            .setup(CommandLineRefusalsTest::leaseOrders),
        refused("maintain with a missing configuration", with(maintain, "--config", "missing.properties"),
            "Configuration file {dir}/missing.properties does not exist")));
    // load: every mistake found before anything touches the catalog.
    List<String> load = args("load", "/Shop/raw/new");
    cases.addAll(List.of(
        refused("load without arguments", args("load"), "Name the table and the files to load"),
        refused("load without files", load, "Name the table and the files to load"),
        refused("load of a file that does not exist", with(load, "missing.csv", "--schema", COLUMNS),
            "File {dir}/missing.csv does not exist"),
        refused("load of a folder", with(load, "seeds", "--schema", COLUMNS), "File {dir}/seeds is a folder"),
        refused("load of a file without a known extension", with(load, "orders.txt", "--schema", COLUMNS),
            "File {dir}/orders.txt has no extension that names its format", "give --format csv, json or parquet")
            .file("orders.txt", "order_id\n1\n"),
        refused("unknown format", with(load, "orders.csv", "--format", "xml"), "Unknown format 'xml'"),
        refused("unknown mode", with(load, "orders.csv", "--schema", COLUMNS, "--mode", "upsert"),
            "Unknown --mode 'upsert'; use create, append or replace"),
        refused("unknown column type", with(load, "orders.csv", "--schema", "order_id inte"),
            "--schema at character 10", "type 'inte'"),
        refused("empty declaration", with(load, "orders.csv", "--schema", ""), "--schema"),
        refused("columns given twice", with(load, "orders.csv", "--schema", COLUMNS, "--schema-file", "orders.schema"),
            "Give the columns once: --schema or --schema-file, not both"),
        refused("schema file that does not exist", with(load, "orders.csv", "--schema-file", "nope.schema"),
            "Schema file {dir}/nope.schema (--schema-file) does not exist"),
        refused("schema file that is a folder", with(load, "orders.csv", "--schema-file", "seeds"),
            "Schema file {dir}/seeds (--schema-file) is a folder"),
        refused("schema file that does not parse", with(load, "orders.csv", "--schema-file", "bad.schema"),
            "{dir}/bad.schema", "line 2").file("bad.schema", "order_id long\namount money\n"),
        refused("guessed and declared columns", with(load, "orders.csv", "--schema", COLUMNS, "--infer-schema"),
            "--infer-schema guesses the columns that nothing declares, but --schema declares them"),
        refused("guessed columns and a schema file", with(load, "orders.csv", "--schema-file", "orders.schema",
            "--infer-schema"), "but --schema-file declares them"),
        refused("undeclared columns", with(load, "orders.csv"), "The columns of {dir}/orders.csv are not declared",
            "--schema"),
        refused("a Latin-1 file", with(load, "latin1.csv", "--schema", COLUMNS),
            "File {dir}/latin1.csv is not UTF-8 text: line 3, byte 10 of the line (0xE9)", "iconv -f latin1"),
        refused("a Latin-1 JSON file", with(load, "latin1.jsonl", "--schema", COLUMNS),
            "File {dir}/latin1.jsonl is not UTF-8 text: line 1, byte 45 of the line (0xE9)"),
        refused("a fake .gz file", with(load, "fake.csv.gz", "--schema", COLUMNS),
            "File {dir}/fake.csv.gz ends with .gz but is not gzip-compressed"),
        refused("a .gz file of one byte", with(load, "tiny.csv.gz", "--schema", COLUMNS),
            "File {dir}/tiny.csv.gz ends with .gz but is not gzip-compressed: it ends before a gzip header would")
            .file("tiny.csv.gz", "x"),
        refused("a cut gzip file", with(load, "cut.csv.gz", "--schema", COLUMNS),
            "File {dir}/cut.csv.gz is not a complete gzip file").setup(CommandLineRefusalsTest::cutGzip),
        refused("a header that does not match", with(load, "header.csv", "--schema", COLUMNS),
            "The header of {dir}/header.csv (line 1) does not match the declared columns",
            "field 1 is named 'id', which is not a declared column", "required column order_id is missing"),
        refused("a header with a column twice", with(load, "twice.csv", "--schema", COLUMNS),
            "column order_id is named twice (field 2)").file("twice.csv", "order_id,order_id\n1,2\n"),
        refused("an empty CSV file", with(load, "empty.csv", "--schema", COLUMNS),
            "File {dir}/empty.csv is empty (0 bytes): it has no header line").file("empty.csv", ""),
        refused("a text file named .parquet", with(load, "text.parquet"),
            "File {dir}/text.parquet is not a Parquet file: it holds 6 bytes").file("text.parquet", "hello\n"),
        refused("a broken Parquet file", with(load, "broken.parquet"),
            "Cannot read the schema of Parquet file {dir}/broken.parquet")
            .file("broken.parquet", "PAR1 not really parquet PAR1"),
        refused("a Parquet file cut short", with(load, "cut.parquet"), "File {dir}/cut.parquet is not a Parquet "
            + "file: it does not end with PAR1").file("cut.parquet", "PAR1 the rest is missing"),
        refused("a schema for a Parquet file", with(load, "text.parquet", "--schema", COLUMNS),
            "Parquet files carry their schema").file("text.parquet", "hello\n"),
        refused("files of two formats", with(load, "orders.csv", "regions.jsonl", "--schema", COLUMNS),
            "mix formats"),
        refused("create a table that exists", args("load", ORDERS, "orders.csv", "--schema", COLUMNS),
            "Table /Shop/raw/orders (`local`.`Shop`.`raw`.`orders`) exists; --mode create only creates tables"),
        refused("append columns that do not fit", args("load", ORDERS, "orders.csv", "--mode", "append", "--schema",
            "order_id string not null, amount decimal(10,2), status string"),
            "The columns of --schema do not fit table /Shop/raw/orders",
            "order_id: the table has long, the files string"),
        refused("partition by a column that does not exist", with(load, "orders.csv", "--schema", COLUMNS,
            "--partition-by", "days(created_at)"), "names column created_at, which the schema does not have"),
        refused("partition an existing table otherwise", args("load", ORDERS, "orders.csv", "--mode", "append",
            "--partition-by", "status"), "Table /Shop/raw/orders (`local`.`Shop`.`raw`.`orders`) is partitioned by "
            + "nothing, not by status"),
        refused("empty delimiter", with(load, "orders.csv", "--schema", COLUMNS, "--delimiter", ""),
            "--delimiter '' is not one character"),
        refused("two-character delimiter", with(load, "orders.csv", "--schema", COLUMNS, "--delimiter", ";;"),
            "--delimiter ';;' is not one character"),
        refused("a name too long for a folder", args("load", "/Shop/raw/" + "é".repeat(200), "orders.csv", "--schema",
            COLUMNS), "(200 characters) in table path /Shop/raw/", "is 400 bytes in UTF-8",
            "whose name holds at most 255 bytes"),
        refused("load into a folder with a dot", args("load", "/a.b/t", "orders.csv", "--schema", COLUMNS),
            "folder 'a.b' with a '.'"),
        refused("load into a relative path", args("load", "Shop/raw/x", "orders.csv", "--schema", COLUMNS),
            "Invalid dataset path 'Shop/raw/x'"),
        refused("replace with a header that does not match", args("load", ORDERS, "header.csv", "--mode", "replace"),
            "The header of {dir}/header.csv (line 1) does not match"),
        refused("replace with a Latin-1 file", args("load", ORDERS, "latin1.csv", "--mode", "replace"),
            "{dir}/latin1.csv is not UTF-8 text: line 3"),
        refused("append a fake .gz file", args("load", ORDERS, "fake.csv.gz", "--mode", "append"),
            "is not gzip-compressed"),
        refused("--all with a table", args("load", "--all", ORDERS), "--all loads the seeds folder as it is"),
        refused("--all without a seeds folder", args("load", "--all", "--seeds", "no-seeds"),
            "Seeds folder {dir}/no-seeds does not exist"),
        refused("--all with an empty seeds folder", args("load", "--all", "--seeds", "empty-seeds"),
            "Seeds folder {dir}/empty-seeds holds no file to load").setup(d -> Files.createDirectories(d.resolve(
                "empty-seeds"))),
        refused("--all with a seed that is not UTF-8", args("load", "--all", "--mode", "replace"),
            "File {dir}/seeds/Shop/raw/orders.csv is not UTF-8 text: line 3")
            .bytes("seeds/Shop/raw/orders.csv", latin1Csv()),
        refused("--seeds without --all", with(load, "orders.csv", "--schema", COLUMNS, "--seeds", "seeds"),
            "--seeds names the seeds folder of --all; leave it out, or add --all"),
        refused("a Latin-1 file before any warehouse", with(load, "latin1.csv", "--schema", COLUMNS),
            "{dir}/latin1.csv is not UTF-8 text: line 3").setup(CommandLineRefusalsTest::noWarehouse),
        refused("a header that does not match before any warehouse", with(load, "header.csv", "--schema", COLUMNS),
            "The header of {dir}/header.csv (line 1) does not match").setup(CommandLineRefusalsTest::noWarehouse),
        refused("a text file named .parquet before any warehouse", with(load, "text.parquet"),
            "is not a Parquet file").file("text.parquet", "hello\n").setup(CommandLineRefusalsTest::noWarehouse),
        refused("a name too long before any warehouse", args("load", "/Shop/" + "ü".repeat(130), "orders.csv",
            "--schema", COLUMNS), "is 260 bytes in UTF-8").setup(CommandLineRefusalsTest::noWarehouse),
        refused("maintain before any warehouse", args("maintain", ORDERS), "No table at /Shop/raw/orders",
            "has no database yet").setup(CommandLineRefusalsTest::noWarehouse),
        refused("health before any warehouse", args("health", ORDERS), "No table at /Shop/raw/orders",
            "has no database yet").setup(CommandLineRefusalsTest::noWarehouse),
        failed("a bad row", with(load, "bad-row.csv", "--schema", COLUMNS),
            "1 bad row; nothing was written", "bad-row.csv:3:1: column order_id (long, not null): 'x' is not a long")
            .file("bad-row.csv", "order_id,amount,status\n1,2.00,ok\nx,3.00,ok\n"),
        failed("a bad row appended", args("load", ORDERS, "bad-row.csv", "--mode", "append"),
            "bad-row.csv:2:2: column amount (decimal(10, 2)): '1.234' has 3 digits after the point")
            .file("bad-row.csv", "order_id,amount,status\n9,1.234,ok\n").failsAfterStaging(),
        refused("a byte that is not UTF-8 far down", with(load, "deep.csv", "--schema", COLUMNS),
            "File {dir}/deep.csv is not UTF-8 text: line 20002, byte 10 of the line (0xE9)")
            .setup(CommandLineRefusalsTest::deepLatin1)));
    // graph, which another module adds.
    cases.addAll(List.of(
        refused("graph in an unknown format", args("graph", "--format", "png"),
            "Invalid value for option '--format': expected one of [html, svg, dot, mermaid]", "Usage: transforms graph"),
        refused("graph to an empty file name", args("graph", "-o", ""),
            "Invalid value for option '--output': the value is empty"),
        refused("graph into a missing folder", args("graph", "-o", "nowhere/g.html"),
            "Cannot write --output {dir}/nowhere/g.html: its folder {dir}/nowhere does not exist"),
        refused("graph of an unknown transform", args("graph", "--select", "Nope.nope+"), "Nope.nope"),
        refused("graph with a configuration error", args("graph", "--config", "bad.properties"),
            "Unknown configuration key 'colour'").file("bad.properties", "colour=blue\n")));
    return cases;
  }

  private static List<String> with(List<String> start, String... more) {
    List<String> all = new ArrayList<>(start);
    all.addAll(List.of(more));
    return all;
  }

  @BeforeAll
  static void warehouse() throws IOException {
    root = Files.createTempDirectory("cli-refusals");
    work = root.resolve("work");
    template = root.resolve("template");
    Files.createDirectories(work);
    Files.writeString(work.resolve("orders.csv"), "order_id,amount,status\n1,250.00,shipped\n2,30.00,open\n");
    Files.writeString(work.resolve("orders.schema"), "order_id long not null\namount decimal(10,2)\nstatus string\n");
    Files.writeString(work.resolve("regions.jsonl"), "{\"code\": \"EU\", \"name\": \"Europe\"}\n");
    Files.writeString(work.resolve("header.csv"), "id,x\n1,2\n");
    Files.write(work.resolve("latin1.csv"), latin1Csv());
    Files.write(work.resolve("latin1.jsonl"), concat("{\"order_id\": 1, \"amount\": 2.5, \"status\": \"pr".getBytes(
        StandardCharsets.US_ASCII), new byte[] {(byte) 0xe9}, "t\"}\n".getBytes(StandardCharsets.US_ASCII)));
    Files.writeString(work.resolve("fake.csv.gz"), "order_id,amount,status\n1,2.00,ok\n");
    Files.createDirectories(work.resolve("seeds/Shop/raw"));
    Files.writeString(work.resolve("seeds/Shop/raw/orders.csv"), "order_id,amount,status\n3,1.00,new\n");
    Files.writeString(work.resolve("seeds/Shop/raw/orders.schema"), "order_id long not null\namount decimal(10,2)\n"
        + "status string\n");
    assertThat(cli(work, Map.of(), args("load", ORDERS, "orders.csv", "--schema", COLUMNS)).code()).isZero();
    assertThat(cli(work, Map.of(), args("load", "/Shop/ref/regions", "regions.jsonl", "--schema",
        "code string not null, name string")).code()).isZero();
    copy(work, template);
  }

  @AfterAll
  static void removeWarehouse() throws IOException {
    delete(root);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void isRefusedWithAMessageThatSaysWhyAndChangesNothing(Case input) throws Exception {
    fresh();
    input.setup().prepare(work);
    Map<String, String> before = files(work);
    Map<String, String> tablesBefore = tables(work);

    Run run = cli(work, input.environment(), input.args());

    check(input, run, before, tablesBefore);
  }

  /** The same refusals through the real {@code transforms} script, each in a JVM of its own. */
  @Test
  void theLauncherScriptRefusesTheSameWay() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")),
        "the launcher is a bash script");
    Path launcher = launcherCopy();
    List<String> names = List.of("option of another command", "missing --config file after the command",
        "unknown advisory level", "maintain --all with options it would ignore", "age of 999999999999 days",
        "health goes on after a missing table", "a Latin-1 file", "replace with a header that does not match",
        "graph to an empty file name");
    List<Case> chosen = cases().stream().filter(c -> names.contains(c.name())).toList();
    assertThat(chosen).hasSameSizeAs(names);
    for (Case input : chosen) {
      fresh();
      input.setup().prepare(work);
      Map<String, String> before = files(work);
      Map<String, String> tablesBefore = tables(work);
      Run run = script(launcher, input.environment(), input.args());
      check(input, run, before, tablesBefore);
    }
  }

  @Test
  void anEmptyFileThatLoadsNoRowIsNamedInAWarning() throws Exception {
    fresh();
    Files.writeString(work.resolve("empty.jsonl"), "");
    Run json = cli(work, Map.of(), args("load", "/Shop/raw/empty", "empty.jsonl", "--schema", COLUMNS));
    assertThat(json.code()).as(json.err()).isZero();
    assertThat(json.err()).contains("warning: empty.jsonl is empty (0 bytes): it adds no row to /Shop/raw/empty");
    assertThat(json.out()).contains("created with 0 rows");

    Run guess = cli(work, Map.of(), args("load", ORDERS, "orders.csv", "--mode", "append", "--infer-schema"));
    assertThat(guess.code()).as(guess.err()).isZero();
    assertThat(guess.err()).contains("warning: --infer-schema guesses nothing for /Shop/raw/orders: the table exists")
        .doesNotContain("are guessed from its values");
  }

  @Test
  void thereAreAHundredCasesAndEachNamesWhatItChecks() {
    List<Case> cases = cases();
    assertThat(cases).hasSizeGreaterThanOrEqualTo(100);
    assertThat(cases.stream().map(Case::name).distinct().count()).isEqualTo(cases.size());
    assertThat(cases).allSatisfy(c -> assertThat(c.expected()).as(c.name()).isNotEmpty());
  }

  private static void check(Case input, Run run, Map<String, String> before, Map<String, String> tablesBefore)
      throws IOException {
    String printed = run.out() + run.err();
    assertThat(run.code()).as(input.name() + ": the exit code\n" + printed).isEqualTo(input.exit());
    for (String expected : input.expected()) {
      assertThat(printed).as(input.name()).contains(expected.replace("{dir}", work.toString()));
    }
    assertThat(printed).as(input.name() + ": no raw Java error").doesNotContain("\tat ", "Exception in thread",
        "error: null", "Unknown failure", "LocalInputFile@", "Input length = 1", "long overflow",
        "ArithmeticException", "RuntimeIOException");
    assertThat(printed.lines()).as(input.name() + ": no message that is null")
        .noneMatch(l -> l.endsWith(": null") || l.contains(": null;"));
    assertThat(run.err().lines().filter(l -> l.startsWith("error: ")))
        .as(input.name() + ": one error line, short enough to read").hasSize(1)
        .allSatisfy(l -> assertThat(l.length()).isLessThan(800));
    assertThat(tables(work)).as(input.name() + ": the catalog's tables and their current metadata")
        .isEqualTo(tablesBefore);
    if (!input.untilPublishChange()) {
      assertThat(files(work)).as(input.name() + ": every file below the working directory, byte for byte")
          .isEqualTo(before);
    }
  }

  record Run(int code, String out, String err) {}

  private static Run cli(Path dir, Map<String, String> environment, List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(environment, dir), new PrintWriter(out, true),
        new PrintWriter(err, true), args.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  /**
   * A copy of the launcher whose build is up to date: its {@code examples/target/classpath.txt} is this
   * test's class path, so it starts the command line at once instead of running Maven.
   */
  private static Path launcherCopy() throws IOException {
    Path repo = root.resolve("launcher");
    Path target = Files.createDirectories(repo.resolve("examples/target/classes"));
    Files.copy(DocSnippets.REPO.resolve("transforms"), repo.resolve("transforms"));
    Files.writeString(target.resolveSibling("classpath.txt"),
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    Files.writeString(target.resolveSibling("transforms-launcher.built"), "");
    return repo.resolve("transforms");
  }

  private static Run script(Path launcher, Map<String, String> environment, List<String> args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", launcher.toString()));
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith(TransformsConfig.ENV_PREFIX));
    builder.environment().putAll(environment);
    Path out = root.resolve("script.out");
    Path err = root.resolve("script.err");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process process = builder.start();
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the launcher ends").isTrue();
    return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** Puts the template back where every case runs. */
  private static void fresh() throws IOException {
    delete(work);
    copy(template, work);
  }

  /**
   * Every file and folder below {@code dir}, by relative path, with a digest of its bytes ({@code dir} for
   * a folder). Left out: SQLite's shared-memory index ({@code -shm}) and an empty write-ahead log
   * ({@code -wal}), which a read-only connection to a database in WAL mode creates and cannot remove;
   * they hold no data.
   */
  static Map<String, String> files(Path dir) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.filter(p -> !p.equals(dir)).toList()) {
        String name = p.getFileName().toString();
        if (name.endsWith(".db-shm") || (name.endsWith(".db-wal") && Files.size(p) == 0)) {
          continue;
        }
        files.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "dir" : digest(Files.readAllBytes(p)));
      }
    }
    return files;
  }

  /**
   * Each table of the embedded catalog, with what a reader sees of it: the snapshot of {@code main}, the
   * schema, the partition spec, the properties and the branches and tags.
   */
  private static Map<String, String> tables(Path dir) {
    Map<String, String> tables = new TreeMap<>();
    try (Catalogs catalogs = new Catalogs(embedded(dir))) {
      // Only a catalog that exists: looking must not create the database.
      catalogs.existingCatalog("local").ifPresent(catalog -> listTables(catalog, Namespace.empty(), tables));
    }
    return tables;
  }

  /** The embedded catalog of a working directory, without the configuration file a case may have put there. */
  private static TransformsConfig embedded(Path dir) {
    return TransformsConfig.load(java.util.Optional.empty(), java.util.Optional.of(dir.resolve("warehouse")), Map.of(),
        root);
  }

  private static void listTables(Catalog catalog, Namespace namespace, Map<String, String> tables) {
    for (Namespace child : ((SupportsNamespaces) catalog).listNamespaces(namespace)) {
      for (TableIdentifier id : catalog.listTables(child)) {
        String seen;
        try {
          Table table = catalog.loadTable(id);
          seen = "main " + (table.currentSnapshot() == null ? "none" : table.currentSnapshot().snapshotId())
              + ", schema " + table.schema() + ", spec " + table.spec() + ", properties "
              + new TreeMap<>(table.properties()) + ", refs " + new TreeMap<>(table.refs()).keySet();
        } catch (RuntimeException e) {
          seen = "unreadable: " + e.getMessage();
        }
        tables.put(id.toString(), seen);
      }
      listTables(catalog, child, tables);
    }
  }

  private static String digest(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] latin1Csv() {
    return concat("order_id,amount,status\n1,2.00,ok\n2,3.00,pr".getBytes(StandardCharsets.US_ASCII),
        new byte[] {(byte) 0xe9}, "t\n".getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] concat(byte[]... parts) {
    int size = 0;
    for (byte[] part : parts) {
      size += part.length;
    }
    byte[] all = new byte[size];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, all, at, part.length);
      at += part.length;
    }
    return all;
  }

  /** A gzipped CSV file cut in the middle of its compressed data. */
  private static void cutGzip(Path dir) throws IOException {
    Path whole = dir.resolve("whole.csv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(whole))) {
      out.write("order_id,amount,status\n".getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < 5000; i++) {
        out.write((i + "," + (i % 97) + ".00,status-" + (i * 7919 % 1000) + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    byte[] bytes = Files.readAllBytes(whole);
    Files.write(dir.resolve("cut.csv.gz"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
    Files.delete(whole);
  }

  /** A CSV file whose only byte that is not UTF-8 lies beyond the first block the check decodes. */
  private static void deepLatin1(Path dir) throws IOException {
    StringBuilder text = new StringBuilder("order_id,amount,status\n");
    for (int i = 0; i < 20000; i++) {
      text.append(i).append(",1.00,ok\n");
    }
    Files.write(dir.resolve("deep.csv"), concat(text.toString().getBytes(StandardCharsets.US_ASCII),
        "7,1.00,pr".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xe9}, "t\n".getBytes(StandardCharsets.US_ASCII)));
  }

  /** Removes the warehouse: the working directory of a user who has loaded nothing yet. */
  private static void noWarehouse(Path dir) throws IOException {
    delete(dir.resolve("warehouse"));
  }

  /** Deletes the metadata file the catalog points to for /Shop/raw/orders. */
  private static void deleteMetadata(Path dir) throws IOException {
    try (Stream<Path> metadata = Files.list(dir.resolve("warehouse/Shop/raw/orders/metadata"))) {
      Files.delete(metadata.filter(p -> p.toString().endsWith(".metadata.json")).max(Comparator.naturalOrder())
          .orElseThrow());
    }
  }

  /** Gives /Shop/raw/orders the lease of a build of this process, which is alive. */
  private static void leaseOrders(Path dir) {
    try (Catalogs catalogs = new Catalogs(embedded(dir))) {
      Table table = catalogs.catalog("local").loadTable(TableIdentifier.of("Shop", "raw", "orders"));
      table.updateProperties().set(StagingMarks.leaseKey("0123456789ab"),
          BuildLease.forThisProcess("0123456789ab").encode()).commit();
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
