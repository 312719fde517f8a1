package dev.transforms.singlenode.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class WriterSettingsTest {
  @Test
  void zstdWithoutALevelIsWrittenAtLevelOne() {
    assertThat(WriterSettings.writerProperties(Map.of("write.parquet.compression-codec", "ZSTD")))
        .isEqualTo(Map.of("write.parquet.compression-level", "1"));
  }

  @Test
  void aLevelOrACodecTheTableSetsIsKept() {
    assertThat(
            WriterSettings.writerProperties(
                Map.of(
                    "write.parquet.compression-codec", "zstd",
                    "write.parquet.compression-level", "9")))
        .isEmpty();
    assertThat(WriterSettings.writerProperties(Map.of("write.parquet.compression-codec", "snappy")))
        .isEmpty();
    assertThat(WriterSettings.writerProperties(Map.of("write.parquet.compression-codec", "gzip")))
        .isEmpty();
  }

  @Test
  void aTableWithoutACodecIsWrittenInZstdAtLevelOneNotInIcebergsOldGzip() {
    assertThat(WriterSettings.writerProperties(Map.of())).isEqualTo(Map.of(
        "write.parquet.compression-codec", "zstd", "write.parquet.compression-level", "1"));
    assertThat(WriterSettings.writerProperties(Map.of("write.parquet.compression-level", "5")))
        .isEqualTo(Map.of("write.parquet.compression-codec", "zstd"));
    assertThat(WriterSettings.codec(Map.of())).isEqualTo("zstd");
  }
}
