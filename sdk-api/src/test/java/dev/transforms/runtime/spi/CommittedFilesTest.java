package dev.transforms.runtime.spi;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.TransformsException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.junit.jupiter.api.Test;

/** The check of the files a commit adds, on files of an in-memory file system. */
class CommittedFilesTest {

  private final InMemoryFileIO io = new InMemoryFileIO();

  @Test
  void filesThatAreThereWithTheirSizesPass() {
    assertThatCode(() -> CommittedFiles.requirePresent("t", io, List.of(data("mem://t/a.parquet", 10),
        data("mem://t/b.parquet", 20)))).doesNotThrowAnyException();
  }

  @Test
  void aMissingFileIsNamed() {
    DataFile missing = DataFiles.builder(PartitionSpec.unpartitioned()).withPath("mem://t/gone.parquet")
        .withFormat(FileFormat.PARQUET).withFileSizeInBytes(5).withRecordCount(1).build();
    assertThatThrownBy(() -> CommittedFiles.requirePresent("db.t", io, List.of(data("mem://t/a.parquet", 10), missing)))
        .isInstanceOf(TransformsException.class)
        .hasMessageStartingWith("Cannot commit to table db.t: the data file mem://t/gone.parquet that the commit adds "
            + "is missing");
  }

  @Test
  void aFileOfAnotherSizeIsNamedWithBothSizes() {
    DataFile file = data("mem://t/a.parquet", 10);
    DataFile recorded = DataFiles.builder(PartitionSpec.unpartitioned()).copy(file).withFileSizeInBytes(12).build();
    assertThatThrownBy(() -> CommittedFiles.requirePresent("db.t", io, List.of(recorded)))
        .hasMessageContaining("mem://t/a.parquet that the commit adds is 10 bytes, and the commit records 12");
  }

  @Test
  void aFileNamedTwiceIsRefused() {
    DataFile file = data("mem://t/a.parquet", 10);
    assertThatThrownBy(() -> CommittedFiles.requirePresent("db.t", io, List.of(file, file)))
        .hasMessageContaining("mem://t/a.parquet that the commit adds is named twice");
  }

  @Test
  void deletionVectorsMayShareOnePuffinFileAtTheirOwnOffsets() {
    write("mem://t/dv.puffin", 100);
    List<ContentFile<?>> vectors = new ArrayList<>();
    vectors.add(vector(4, "mem://t/a.parquet"));
    vectors.add(vector(40, "mem://t/b.parquet"));
    assertThatCode(() -> CommittedFiles.requirePresent("t", io, vectors)).doesNotThrowAnyException();

    vectors.add(vector(40, "mem://t/b.parquet"));
    assertThatThrownBy(() -> CommittedFiles.requirePresent("t", io, vectors))
        .hasMessageContaining("delete file mem://t/dv.puffin that the commit adds is named twice");
  }

  private DataFile data(String location, int bytes) {
    write(location, bytes);
    return DataFiles.builder(PartitionSpec.unpartitioned()).withPath(location).withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(bytes).withRecordCount(1).build();
  }

  private static DeleteFile vector(long offset, String dataFile) {
    return FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned()).ofPositionDeletes()
        .withFormat(FileFormat.PUFFIN).withPath("mem://t/dv.puffin").withFileSizeInBytes(100)
        .withContentOffset(offset).withContentSizeInBytes(30).withReferencedDataFile(dataFile).withRecordCount(1)
        .build();
  }

  private void write(String location, int bytes) {
    try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(new byte[bytes]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
