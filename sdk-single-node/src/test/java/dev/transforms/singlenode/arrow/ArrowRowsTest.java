package dev.transforms.singlenode.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ArrowRowsTest {

  @Test
  void filterKeepsTheSchemaAndTheChosenRowsAndLeaksNothing() {
    try (RootAllocator allocator = new RootAllocator()) {
      Schema schema = new Schema(List.of(
          new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
          new Field("name", FieldType.nullable(new ArrowType.Utf8()), null)));
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
        BigIntVector ids = (BigIntVector) root.getVector("id");
        VarCharVector names = (VarCharVector) root.getVector("name");
        for (int i = 0; i < 5; i++) {
          ids.setSafe(i, i * 10L);
          if (i == 3) {
            names.setNull(i);
          } else {
            names.setSafe(i, ("n" + i).getBytes(StandardCharsets.UTF_8));
          }
        }
        root.setRowCount(5);
        try (VectorSchemaRoot kept = ArrowRows.filter(root, row -> ids.get(row) >= 20, allocator)) {
          assertThat(kept.getSchema()).isEqualTo(schema);
          assertThat(kept.getRowCount()).isEqualTo(3);
          BigIntVector keptIds = (BigIntVector) kept.getVector("id");
          VarCharVector keptNames = (VarCharVector) kept.getVector("name");
          assertThat(List.of(keptIds.get(0), keptIds.get(1), keptIds.get(2))).containsExactly(20L, 30L, 40L);
          assertThat(keptNames.getObject(0).toString()).isEqualTo("n2");
          assertThat(keptNames.isNull(1)).isTrue();
        }
        try (VectorSchemaRoot none = ArrowRows.filter(root, row -> false, allocator)) {
          assertThat(none.getRowCount()).isZero();
        }
      }
      assertThat(allocator.getAllocatedMemory()).isZero();
    }
  }
}
