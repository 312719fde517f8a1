package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.filter.SqlNulls;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The compiled filter answers as Iceberg's Evaluator does, for every value, nulls included. */
class IntegralFilterTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "n", Types.IntegerType.get()),
      Types.NestedField.optional(3, "name", Types.StringType.get()));

  @Test
  void answersAsTheEvaluatorOnRandomFiltersAndValues() {
    Random random = new Random(42);
    int compiled = 0;
    for (int round = 0; round < 400; round++) {
      String column = random.nextBoolean() ? "id" : "n";
      Expression filter = randomFilter(random, column, 3);
      for (Expression candidate : List.of(filter, SqlNulls.nullsNeverMatch(filter))) {
        IntegralFilter integral = IntegralFilter.compile(SCHEMA.asStruct(), candidate);
        if (integral == null) {
          continue;
        }
        compiled++;
        Evaluator evaluator = new Evaluator(SCHEMA.asStruct(), candidate, true);
        InternalRecordWrapper wrapper = new InternalRecordWrapper(SCHEMA.asStruct());
        GenericRecord row = GenericRecord.create(SCHEMA);
        for (int v = -12; v <= 12; v++) {
          Object value = v == 12 ? null : (column.equals("id") ? (Object) (long) v : (Object) v);
          row.setField(column, value);
          assertThat(integral.test(value)).as("%s on %s", candidate, value)
              .isEqualTo(evaluator.eval(wrapper.wrap(row)));
        }
      }
    }
    assertThat(compiled).as("filters compiled").isGreaterThan(400);
  }

  @Test
  void leavesOtherShapesToTheEvaluator() {
    assertThat(IntegralFilter.compile(SCHEMA.asStruct(), Expressions.equal("name", "a"))).isNull();
    assertThat(IntegralFilter.compile(SCHEMA.asStruct(),
        Expressions.and(Expressions.equal("id", 1L), Expressions.equal("n", 1)))).isNull();
    assertThat(IntegralFilter.compile(SCHEMA.asStruct(), Expressions.not(Expressions.equal("id", 1L)))).isNull();
    assertThat(IntegralFilter.compile(SCHEMA.asStruct(), Expressions.equal("missing", 1L))).isNull();
    IntegralFilter range = IntegralFilter.compile(SCHEMA.asStruct(),
        SqlNulls.nullsNeverMatch(Expressions.and(Expressions.greaterThanOrEqual("id", 10L),
            Expressions.lessThan("id", 20L))));
    assertThat(range).isNotNull();
    assertThat(range.test(10L)).isTrue();
    assertThat(range.test(20L)).isFalse();
    assertThat(range.test(null)).isFalse();
  }

  private static Expression randomFilter(Random random, String column, int depth) {
    int kind = random.nextInt(depth > 0 ? 12 : 10);
    long v = random.nextInt(21) - 10;
    Object literal = column.equals("id") ? (Object) v : (Object) (int) v;
    switch (kind) {
      case 0: return Expressions.lessThan(column, literal);
      case 1: return Expressions.lessThanOrEqual(column, literal);
      case 2: return Expressions.greaterThan(column, literal);
      case 3: return Expressions.greaterThanOrEqual(column, literal);
      case 4: return Expressions.equal(column, literal);
      case 5: return Expressions.notEqual(column, literal);
      case 6: return Expressions.isNull(column);
      case 7: return Expressions.notNull(column);
      case 8: {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < 1 + random.nextInt(4); i++) {
          long w = random.nextInt(21) - 10;
          values.add(column.equals("id") ? (Object) w : (Object) (int) w);
        }
        return random.nextBoolean() ? Expressions.in(column, values.toArray()) : Expressions.notIn(column,
            values.toArray());
      }
      case 9: return random.nextBoolean() ? Expressions.alwaysTrue() : Expressions.alwaysFalse();
      case 10: return Expressions.and(randomFilter(random, column, depth - 1), randomFilter(random, column, depth - 1));
      default: return Expressions.or(randomFilter(random, column, depth - 1), randomFilter(random, column, depth - 1));
    }
  }
}
