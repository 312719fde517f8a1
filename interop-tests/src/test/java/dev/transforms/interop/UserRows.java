package dev.transforms.interop;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.catalyst.expressions.XxHash64Function;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The expected rows of a users' table, computed in plain Java: the oracle of {@link UsersTablesInteropTest}.
 * A row is a pure function of its id and a version ({@link #values}), so the table's expected state is, per id,
 * the version of its row or none; an edit changes versions, and a reader's rows are checked against the values
 * the versions give ({@link #check}: a row read is compared by a 64-bit hash of its values, kept per id, and
 * by its values when the hashes differ). Spark's reads are compared by a digest, the sum of Spark's own
 * {@code xxhash64} over the rows ({@link #sparkDigest}). Values hold what users' columns hold: nulls in every
 * optional column, a few non-ASCII names, NaN scores, decimals of both signs.
 */
final class UserRows {
  /** The columns: a long key, two strings, a date, a decimal(12,2), an int and a double. */
  static final Schema SCHEMA = new Schema(List.of(
      required(1, "id", Types.LongType.get()),
      optional(2, "name", Types.StringType.get()),
      optional(3, "region", Types.StringType.get()),
      optional(4, "signup", Types.DateType.get()),
      optional(5, "balance", Types.DecimalType.of(12, 2)),
      optional(6, "visits", Types.IntegerType.get()),
      optional(7, "score", Types.DoubleType.get())), Set.of(1));

  /** The columns in the order of {@link #values}. */
  static final List<String> COLUMNS = List.of("id", "name", "region", "signup", "balance", "visits", "score");

  static final String[] REGIONS = {"eu", "us", "apac", "latam"};
  private static final LocalDate FIRST_SIGNUP = LocalDate.of(2015, 1, 1);
  private static final int ABSENT = -1;

  private final long regionBlock;
  private int[] versions = new int[0];
  /** Per id, {@link #rowHash} of its current row: checking a read compares hashes, not values. */
  private long[] hashes = new long[0];
  /** Per id, Spark's {@code xxhash64} of its current row ({@link #sparkHash}). */
  private long[] sparkHashes = new long[0];
  private long live;

  /**
   * An empty table's rows.
   *
   * @param regionBlock how many consecutive ids share a region (before updates move some rows)
   */
  UserRows(long regionBlock) {
    this.regionBlock = regionBlock;
  }

  /**
   * The values of a row, in the order of {@link #COLUMNS}: id, name, region, signup, balance, visits, score.
   * Version 0 is a row as first written; every edit that rewrites a row gives it another version.
   */
  Object[] values(long id, int version) {
    String name = Math.floorMod(id + version, 53) == 0 ? null
        : "user " + id + (version == 0 ? "" : " v" + version) + (id % 101 == 0 ? " Jürgen 日本" : "");
    // one row in ten changes region with each version: an update that moves the row to another partition
    long regionIndex = id / regionBlock + (id % 10 == 3 ? version : 0);
    String region = REGIONS[(int) Math.floorMod(regionIndex, REGIONS.length)];
    LocalDate signup = id % 1009 == 0 ? null : FIRST_SIGNUP.plusDays(Math.floorMod(id * 13 + version * 101L, 3650));
    BigDecimal balance = id % 37 == 0 ? null
        : BigDecimal.valueOf(Math.floorMod(id * 7919 + version * 1_000_003L, 100_000_000_000L) - 50_000_000_000L, 2);
    Integer visits = id % 41 == 1 ? null : (int) Math.floorMod(id * 2_654_435_761L + version * 97L, 100);
    Double score = id % 43 == 2 ? null : id % 997 == 0 ? Double.NaN : (id % 10_000) / 8.0 + version;
    return new Object[] {id, name, region, signup, balance, visits, score};
  }

  /** The row as a record of a table's schema (whose columns are those of {@link #SCHEMA}, in any order). */
  Record record(Schema schema, long id, int version) {
    Object[] values = values(id, version);
    GenericRecord record = GenericRecord.create(schema);
    for (int i = 0; i < COLUMNS.size(); i++) {
      record.setField(COLUMNS.get(i), values[i]);
    }
    return record;
  }

  /** Records of the given ids at a version. */
  List<Record> records(Schema schema, LongStream ids, int version) {
    List<Record> records = new ArrayList<>();
    ids.forEach(id -> records.add(record(schema, id, version)));
    return records;
  }

  /**
   * Fills a root, whose vectors are those {@code ArrowSchemas.toArrow} gives the table's schema, with the rows
   * of ids {@code [from, to)} at a version.
   */
  void fill(VectorSchemaRoot root, long from, long to, int version) {
    int rows = Math.toIntExact(to - from);
    root.allocateNew();
    for (int row = 0; row < rows; row++) {
      Object[] values = values(from + row, version);
      for (int c = 0; c < COLUMNS.size(); c++) {
        FieldVector vector = root.getVector(COLUMNS.get(c));
        Object value = values[c];
        if (value == null) {
          vector.setNull(row);
        } else if (vector instanceof BigIntVector longs) {
          longs.setSafe(row, (Long) value);
        } else if (vector instanceof VarCharVector strings) {
          strings.setSafe(row, ((String) value).getBytes(StandardCharsets.UTF_8));
        } else if (vector instanceof DateDayVector days) {
          days.setSafe(row, Math.toIntExact(((LocalDate) value).toEpochDay()));
        } else if (vector instanceof DecimalVector decimals) {
          decimals.setSafe(row, (BigDecimal) value);
        } else if (vector instanceof IntVector ints) {
          ints.setSafe(row, (Integer) value);
        } else if (vector instanceof Float8Vector doubles) {
          doubles.setSafe(row, (Double) value);
        } else {
          throw new IllegalArgumentException("No values for vector " + vector.getField());
        }
      }
    }
    root.setRowCount(rows);
  }

  /** Sets the row of an id to a version (inserting or replacing it). */
  void put(long id, int version) {
    if (id >= versions.length) {
      int old = versions.length;
      int length = (int) Math.max(id + 1, old * 3L / 2 + 1_024);
      versions = Arrays.copyOf(versions, length);
      hashes = Arrays.copyOf(hashes, length);
      sparkHashes = Arrays.copyOf(sparkHashes, length);
      Arrays.fill(versions, old, versions.length, ABSENT);
    }
    if (versions[(int) id] == ABSENT) {
      live += 1;
    }
    versions[(int) id] = version;
    Object[] values = values(id, version);
    hashes[(int) id] = rowHash(values);
    sparkHashes[(int) id] = sparkHash(values);
  }

  /** The sum of Spark's {@code xxhash64} over the live rows, as {@code sum(cast(xxhash64(...) AS decimal(38, 0)))}. */
  BigInteger sparkDigest() {
    long low = 0;
    long carries = 0; // the sum is exact: 64-bit halves, then one BigInteger
    for (int id = 0; id < versions.length; id++) {
      if (versions[id] != ABSENT) {
        long hash = sparkHashes[id];
        long sum = low + hash;
        if (((low ^ sum) & (hash ^ sum)) < 0) {
          carries += hash < 0 ? -1 : 1;
        }
        low = sum;
      }
    }
    return BigInteger.valueOf(carries).shiftLeft(64).add(BigInteger.valueOf(low));
  }

  private static final DataType[] SPARK_TYPES = {
      DataTypes.LongType, DataTypes.StringType,
      DataTypes.StringType, DataTypes.DateType,
      DataTypes.createDecimalType(12, 2), DataTypes.IntegerType,
      DataTypes.DoubleType};

  /** Spark's {@code xxhash64} of a row's values, as its SQL function computes it: seed 42, column after column. */
  static long sparkHash(Object[] values) {
    long hash = 42;
    for (int i = 0; i < values.length; i++) {
      Object value = values[i];
      Object internal = value instanceof String text ? UTF8String.fromString(text)
          : value instanceof LocalDate date ? (Object) Math.toIntExact(date.toEpochDay())
          : value instanceof BigDecimal decimal ? Decimal.apply(decimal, 12, 2)
          : value;
      hash = XxHash64Function.hash(internal, SPARK_TYPES[i], hash);
    }
    return hash;
  }

  /** A 64-bit hash of a row's values (normalized as {@link #normalize} gives them). */
  static long rowHash(Object[] values) {
    long hash = 1;
    for (Object value : values) {
      long bits = value == null ? 0x5bd1e995L
          : value instanceof Long number ? number
          : value instanceof Integer number ? number
          : value instanceof Double number ? Double.doubleToLongBits(number)
          : value instanceof LocalDate date ? date.toEpochDay()
          : value instanceof BigDecimal decimal ? decimal.unscaledValue().longValue() * 31 + decimal.scale()
          : value.hashCode();
      hash = (hash ^ bits) * 0x9E3779B97F4A7C15L;
      hash ^= hash >>> 29;
    }
    return hash;
  }

  /** Removes the row of an id, if there is one. */
  void remove(long id) {
    if (contains(id)) {
      versions[(int) id] = ABSENT;
      live -= 1;
    }
  }

  boolean contains(long id) {
    return id >= 0 && id < versions.length && versions[(int) id] != ABSENT;
  }

  /** The version of a live id's row. */
  int version(long id) {
    if (!contains(id)) {
      throw new IllegalArgumentException("No row of id " + id);
    }
    return versions[(int) id];
  }

  /** The current values of a live id's row. */
  Object[] current(long id) {
    return values(id, version(id));
  }

  long liveCount() {
    return live;
  }

  /** One more than the largest id ever given a row. */
  long idLimit() {
    for (int id = versions.length - 1; id >= 0; id--) {
      if (versions[id] != ABSENT) {
        return id + 1L;
      }
    }
    return 0;
  }

  /** The live ids, ascending. */
  LongStream liveIds() {
    return LongStream.range(0, versions.length).filter(this::contains);
  }

  /** The live ids whose current row matches a predicate on its values (SQL's: a null never matches). */
  LongStream matching(Predicate<Object[]> predicate) {
    return liveIds().filter(id -> predicate.test(current(id)));
  }

  /** Starts checking a reader's rows against these; feed it every row, then {@link Check#finish()}. */
  Check check(String what) {
    return new Check(what);
  }

  /**
   * The comparison of one read with the expected rows: every row read must be a live id's current row, read
   * once, and every live id must be read. Collects the first differences and reports them together.
   */
  final class Check {
    private static final int SHOWN = 8;
    private final String what;
    private final BitSet seen = new BitSet();
    private final List<String> problems = new ArrayList<>();
    private long rows;
    private long problemCount;

    private Check(String what) {
      this.what = what;
    }

    /** One row as read: values in the order of {@link #COLUMNS}, normalized by {@link #normalize}. */
    void row(Object[] read) {
      rows += 1;
      long id = (Long) read[0];
      if (!contains(id)) {
        problem("id " + id + " read, but the table holds no such row: " + Arrays.toString(read));
      } else if (seen.get((int) id)) {
        problem("id " + id + " read twice: " + Arrays.toString(read));
      } else {
        seen.set((int) id);
        if (rowHash(read) != hashes[(int) id] && !Arrays.equals(current(id), read)) {
          Object[] expected = current(id);
          problem("id " + id + " (version " + version(id) + ") read as " + Arrays.toString(read) + ", expected "
              + Arrays.toString(expected));
        }
      }
    }

    /** Every row of a root whose vectors are named as {@link #COLUMNS} (the SDK's read, PyIceberg's export). */
    void rows(VectorSchemaRoot root) {
      List<FieldVector> vectors = new ArrayList<>();
      for (String column : COLUMNS) {
        vectors.add(root.getVector(column));
      }
      for (int row = 0; row < root.getRowCount(); row++) {
        Object[] values = new Object[vectors.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = normalize(COLUMNS.get(i), vectors.get(i).getObject(row));
        }
        row(values);
      }
    }

    /** One record of Iceberg's generic reader. */
    void record(Record record) {
      Object[] values = new Object[COLUMNS.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = normalize(COLUMNS.get(i), record.getField(COLUMNS.get(i)));
      }
      row(values);
    }

    private void problem(String text) {
      problemCount += 1;
      if (problems.size() < SHOWN) {
        problems.add(text);
      }
    }

    /** Fails with the differences found, and the ids expected but not read. */
    void finish() {
      List<Long> missing = new ArrayList<>();
      long missingCount = liveIds().filter(id -> !seen.get((int) id)).peek(id -> {
        if (missing.size() < SHOWN) {
          missing.add(id);
        }
      }).count();
      if (problemCount > 0 || missingCount > 0) {
        throw new AssertionError(String.format("%s: %,d rows read, %,d expected; %,d rows differ%s; %,d ids not read%s",
            what, rows, live, problemCount, problems.isEmpty() ? "" : ":\n  " + String.join("\n  ", problems),
            missingCount, missing.isEmpty() ? "" : " (first " + missing + ")"));
      }
    }
  }

  /**
   * A value as a reader gives it, in the Java type {@link #values} uses: strings from any char sequence
   * (Arrow's {@code Text}, Avro's {@code Utf8}), dates from epoch days, decimals from Spark's {@code Decimal}.
   */
  static Object normalize(String column, Object value) {
    if (value == null) {
      return null;
    }
    return switch (column) {
      case "name", "region" -> value.toString();
      case "signup" -> value instanceof Number days ? LocalDate.ofEpochDay(days.longValue())
          : value instanceof java.sql.Date date ? date.toLocalDate() : (LocalDate) value;
      case "balance" -> value instanceof Decimal decimal ? decimal.toJavaBigDecimal()
          : (BigDecimal) value;
      case "id" -> ((Number) value).longValue();
      case "visits" -> ((Number) value).intValue();
      case "score" -> ((Number) value).doubleValue();
      default -> throw new IllegalArgumentException("No column " + column);
    };
  }
}
