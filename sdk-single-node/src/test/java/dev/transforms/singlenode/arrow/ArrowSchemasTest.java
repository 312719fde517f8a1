package dev.transforms.singlenode.arrow;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.UnsupportedTypeException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class ArrowSchemasTest {
  static final Schema ALL_TYPES =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "flag", Types.BooleanType.get()),
          optional(3, "count", Types.IntegerType.get()),
          optional(4, "ratio", Types.FloatType.get()),
          optional(5, "score", Types.DoubleType.get()),
          optional(6, "price", Types.DecimalType.of(10, 2)),
          optional(7, "big", Types.DecimalType.of(38, 10)),
          optional(8, "day", Types.DateType.get()),
          optional(9, "at_time", Types.TimeType.get()),
          optional(10, "local_ts", Types.TimestampType.withoutZone()),
          optional(11, "utc_ts", Types.TimestampType.withZone()),
          optional(12, "name", Types.StringType.get()),
          optional(13, "uid", Types.UUIDType.get()),
          optional(14, "code", Types.FixedType.ofLength(3)),
          optional(15, "payload", Types.BinaryType.get()));

  static final Schema NESTED =
      new Schema(
          required(1, "id", Types.IntegerType.get()),
          optional(
              2,
              "address",
              Types.StructType.of(
                  required(3, "street", Types.StringType.get()),
                  optional(4, "zip", Types.IntegerType.get()))),
          optional(5, "tags", Types.ListType.ofOptional(6, Types.StringType.get())),
          optional(
              7,
              "scores",
              Types.MapType.ofOptional(8, 9, Types.StringType.get(), Types.DoubleType.get())),
          optional(
              10,
              "points",
              Types.ListType.ofRequired(
                  11,
                  Types.StructType.of(
                      required(12, "x", Types.DoubleType.get()),
                      optional(13, "y", Types.DoubleType.get())))),
          optional(
              14,
              "groups",
              Types.MapType.ofRequired(
                  15,
                  16,
                  Types.StringType.get(),
                  Types.ListType.ofOptional(17, Types.LongType.get()))));

  @Test
  void mapsEveryPrimitiveType() {
    org.apache.arrow.vector.types.pojo.Schema arrow = ArrowSchemas.toArrow(ALL_TYPES);

    assertThat(arrow.getFields()).hasSize(ALL_TYPES.columns().size());
    assertThat(type(arrow, "id")).isEqualTo(new ArrowType.Int(64, true));
    assertThat(type(arrow, "flag")).isEqualTo(ArrowType.Bool.INSTANCE);
    assertThat(type(arrow, "count")).isEqualTo(new ArrowType.Int(32, true));
    assertThat(type(arrow, "ratio"))
        .isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    assertThat(type(arrow, "score"))
        .isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    assertThat(type(arrow, "price")).isEqualTo(new ArrowType.Decimal(10, 2, 128));
    assertThat(type(arrow, "big")).isEqualTo(new ArrowType.Decimal(38, 10, 128));
    assertThat(type(arrow, "day")).isEqualTo(new ArrowType.Date(DateUnit.DAY));
    assertThat(type(arrow, "at_time")).isEqualTo(new ArrowType.Time(TimeUnit.MICROSECOND, 64));
    assertThat(type(arrow, "local_ts"))
        .isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
    assertThat(type(arrow, "utc_ts"))
        .isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
    assertThat(type(arrow, "name")).isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(type(arrow, "uid")).isEqualTo(new ArrowType.FixedSizeBinary(16));
    assertThat(type(arrow, "code")).isEqualTo(new ArrowType.FixedSizeBinary(3));
    assertThat(type(arrow, "payload")).isEqualTo(ArrowType.Binary.INSTANCE);

    assertThat(arrow.findField("id").isNullable()).isFalse();
    assertThat(arrow.findField("flag").isNullable()).isTrue();
    for (Types.NestedField column : ALL_TYPES.columns()) {
      Field field = arrow.findField(column.name());
      assertThat(field.getMetadata())
          .containsEntry(ArrowSchemas.FIELD_ID_KEY, Integer.toString(column.fieldId()));
      assertThat(ArrowSchemas.fieldId(field)).isEqualTo(column.fieldId());
    }
  }

  @Test
  void mapsNanosecondTimestamps() {
    Schema schema =
        new Schema(
            optional(1, "local_ns", Types.TimestampNanoType.withoutZone()),
            optional(2, "utc_ns", Types.TimestampNanoType.withZone()));
    org.apache.arrow.vector.types.pojo.Schema arrow = ArrowSchemas.toArrow(schema);
    assertThat(type(arrow, "local_ns"))
        .isEqualTo(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null));
    assertThat(type(arrow, "utc_ns")).isEqualTo(new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC"));
    assertThat(ArrowSchemas.toIceberg(arrow).asStruct()).isEqualTo(schema.asStruct());
  }

  @Test
  void mapsNestedTypesWithIdsAndNullability() {
    org.apache.arrow.vector.types.pojo.Schema arrow = ArrowSchemas.toArrow(NESTED);

    Field address = arrow.findField("address");
    assertThat(address.getType()).isEqualTo(ArrowType.Struct.INSTANCE);
    assertThat(address.getChildren()).extracting(Field::getName).containsExactly("street", "zip");
    assertThat(address.getChildren().get(0).isNullable()).isFalse();
    assertThat(ArrowSchemas.fieldId(address.getChildren().get(1))).isEqualTo(4);

    Field tags = arrow.findField("tags");
    assertThat(tags.getType()).isEqualTo(ArrowType.List.INSTANCE);
    Field element = tags.getChildren().get(0);
    assertThat(element.getName()).isEqualTo("element");
    assertThat(element.isNullable()).isTrue();
    assertThat(ArrowSchemas.fieldId(element)).isEqualTo(6);

    Field scores = arrow.findField("scores");
    assertThat(scores.getType()).isEqualTo(new ArrowType.Map(false));
    Field entries = scores.getChildren().get(0);
    assertThat(entries.getName()).isEqualTo("entries");
    assertThat(entries.isNullable()).isFalse();
    assertThat(entries.getChildren()).extracting(Field::getName).containsExactly("key", "value");
    assertThat(entries.getChildren().get(0).isNullable()).isFalse();
    assertThat(ArrowSchemas.fieldId(entries.getChildren().get(0))).isEqualTo(8);
    assertThat(ArrowSchemas.fieldId(entries.getChildren().get(1))).isEqualTo(9);

    Field points = arrow.findField("points");
    assertThat(points.getChildren().get(0).isNullable()).isFalse();
    assertThat(points.getChildren().get(0).getChildren()).hasSize(2);

    // and Arrow vectors can be made from it
    try (org.apache.arrow.memory.BufferAllocator allocator =
            new org.apache.arrow.memory.RootAllocator();
        org.apache.arrow.vector.VectorSchemaRoot root =
            org.apache.arrow.vector.VectorSchemaRoot.create(arrow, allocator)) {
      assertThat(root.getVector("scores"))
          .isInstanceOf(org.apache.arrow.vector.complex.MapVector.class);
    }
  }

  @Test
  void convertsBackToIcebergWithFreshIds() {
    Schema expected = TypeUtil.assignFreshIds(NESTED, new AtomicInteger()::incrementAndGet);
    assertThat(ArrowSchemas.toIceberg(ArrowSchemas.toArrow(NESTED)).asStruct())
        .isEqualTo(expected.asStruct());

    Schema allTypes = ArrowSchemas.toIceberg(ArrowSchemas.toArrow(ALL_TYPES));
    // uuid has no Arrow type of its own here: it comes back as fixed[16]
    assertThat(allTypes.findType("uid")).isEqualTo(Types.FixedType.ofLength(16));
    assertThat(allTypes.findType("utc_ts")).isEqualTo(Types.TimestampType.withZone());
    assertThat(allTypes.findField("id").isRequired()).isTrue();
    assertThat(allTypes.columns()).hasSize(ALL_TYPES.columns().size());
  }

  @Test
  void acceptsWiderArrowTypesWhenCreatingTables() {
    org.apache.arrow.vector.types.pojo.Schema arrow =
        new org.apache.arrow.vector.types.pojo.Schema(
            List.of(
                Field.nullable("a", ArrowType.LargeUtf8.INSTANCE),
                Field.nullable("b", ArrowType.LargeBinary.INSTANCE),
                Field.nullable("c", new ArrowType.Int(16, true)),
                Field.nullable("d", new ArrowType.Int(32, false)),
                Field.nullable("e", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "Europe/Paris")),
                Field.nullable("f", new ArrowType.Date(DateUnit.MILLISECOND)),
                new Field(
                    "g",
                    FieldType.nullable(ArrowType.LargeList.INSTANCE),
                    List.of(Field.notNullable("item", new ArrowType.Int(64, true))))));
    Schema schema = ArrowSchemas.toIceberg(arrow);
    assertThat(schema.asStruct())
        .isEqualTo(
            new Schema(
                    optional(1, "a", Types.StringType.get()),
                    optional(2, "b", Types.BinaryType.get()),
                    optional(3, "c", Types.IntegerType.get()),
                    optional(4, "d", Types.LongType.get()),
                    optional(5, "e", Types.TimestampType.withZone()),
                    optional(6, "f", Types.DateType.get()),
                    optional(7, "g", Types.ListType.ofRequired(8, Types.LongType.get())))
                .asStruct());
  }

  @Test
  void namesEveryUnsupportedArrowType() {
    org.apache.arrow.vector.types.pojo.Schema arrow =
        new org.apache.arrow.vector.types.pojo.Schema(
            List.of(
                Field.nullable("ok", ArrowType.Utf8.INSTANCE),
                Field.nullable("span", new ArrowType.Duration(TimeUnit.SECOND)),
                Field.nullable("period", new ArrowType.Interval(IntervalUnit.DAY_TIME))));
    assertThatThrownBy(() -> ArrowSchemas.toIceberg(arrow))
        .isInstanceOf(UnsupportedTypeException.class)
        .hasMessageContaining("'span'")
        .hasMessageContaining("'period'")
        .hasMessageNotContaining("'ok'");
  }

  @Test
  void rejectsIcebergTypesWithoutArrowCounterpart() {
    Schema schema = new Schema(optional(1, "doc", Types.VariantType.get()));
    assertThatThrownBy(() -> ArrowSchemas.toArrow(schema))
        .isInstanceOf(UnsupportedTypeException.class)
        .hasMessageContaining("'doc'")
        .hasMessageContaining("variant");
  }

  @Test
  void checkWritableListsEveryDifferenceInOneError() {
    Schema table =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "name", Types.StringType.get()),
            required(3, "amount", Types.DecimalType.of(10, 2)),
            optional(
                4,
                "address",
                Types.StructType.of(
                    required(5, "zip", Types.StringType.get()),
                    optional(6, "street", Types.StringType.get()))),
            optional(7, "at", Types.TimestampType.withZone()),
            optional(8, "note", Types.StringType.get()));
    org.apache.arrow.vector.types.pojo.Schema arrow =
        new org.apache.arrow.vector.types.pojo.Schema(
            List.of(
                Field.nullable("id", new ArrowType.Int(64, true)),
                Field.nullable("name", new ArrowType.Int(32, true)),
                new Field(
                    "address",
                    FieldType.nullable(ArrowType.Struct.INSTANCE),
                    List.of(
                        Field.nullable("zip", ArrowType.Utf8.INSTANCE),
                        Field.nullable("city", ArrowType.Utf8.INSTANCE))),
                Field.nullable("at", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
                Field.nullable("extra", ArrowType.Bool.INSTANCE)));

    List<String> differences = ArrowSchemas.differences(table, arrow);
    assertThat(differences).hasSize(7);

    assertThatThrownBy(() -> ArrowSchemas.checkWritable(table, arrow))
        .isInstanceOfSatisfying(
            SchemaMismatchException.class,
            e -> assertThat(e.differences()).isEqualTo(differences))
        .hasMessageContaining("7 differences")
        .hasMessageContaining("column 'id' is nullable in the Arrow data but required")
        .hasMessageContaining("column 'name' has Arrow type Int(32, true) but the table type is string")
        .hasMessageContaining("required column 'amount' (decimal(10, 2)) is missing")
        .hasMessageContaining("column 'address.zip' is nullable")
        .hasMessageContaining("column 'address.city' (Arrow Utf8) is not in the table")
        .hasMessageContaining("column 'at' has Arrow type Timestamp(MICROSECOND, null)")
        .hasMessageContaining("column 'extra' (Arrow Bool) is not in the table")
        .hasMessageNotContaining("'note'")
        .hasMessageNotContaining("'address.street'");
  }

  @Test
  void checkWritableAcceptsReorderedColumnsWiderTypesAndMissingOptionalColumns() {
    Schema table =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "name", Types.StringType.get()),
            optional(3, "payload", Types.BinaryType.get()),
            optional(4, "score", Types.DoubleType.get()),
            optional(5, "tags", Types.ListType.ofOptional(6, Types.StringType.get())),
            optional(7, "at", Types.TimestampType.withZone()));
    org.apache.arrow.vector.types.pojo.Schema arrow =
        new org.apache.arrow.vector.types.pojo.Schema(
            List.of(
                Field.nullable("payload", ArrowType.LargeBinary.INSTANCE),
                Field.nullable("name", ArrowType.LargeUtf8.INSTANCE),
                Field.notNullable("id", new ArrowType.Int(32, true)),
                Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
                Field.nullable("at", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "+01:00"))));
    assertThat(ArrowSchemas.differences(table, arrow)).isEmpty();
    ArrowSchemas.checkWritable(table, arrow);
  }

  @Test
  void keepsFieldIdsInMetadataReadableByOtherTools() {
    Field field = ArrowSchemas.toArrow(optional(42, "x", Types.IntegerType.get()));
    assertThat(field.getMetadata()).isEqualTo(Map.of("PARQUET:field_id", "42"));
  }

  private static ArrowType type(org.apache.arrow.vector.types.pojo.Schema schema, String name) {
    return schema.findField(name).getType();
  }
}
