package dev.transforms.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Checks the files a table references: every data and delete file of the current snapshot exists with the
 * size its manifest records and is named by one entry only (a deletion vector by its Puffin file and offset,
 * each data file by at most one vector, and every vector pointing at a live data file); and every manifest,
 * data and delete file of every snapshot the table still keeps exists, so that neither an edit nor
 * maintenance removed a file a snapshot needs.
 */
final class ReferencedFiles {
  private ReferencedFiles() {}

  /** What the current snapshot holds: its live data files and delete files. */
  record Current(List<DataFile> dataFiles, List<DeleteFile> deleteFiles) {}

  /**
   * Checks the table's files and returns the current snapshot's.
   *
   * @param what the step, for failure messages
   */
  static Current check(Table table, String what) {
    table.refresh();
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return new Current(List.of(), List.of());
    }
    FileIO io = table.io();
    Map<String, Long> sizes = new HashMap<>();
    List<DataFile> dataFiles = new ArrayList<>();
    List<DeleteFile> deleteFiles = new ArrayList<>();
    for (ManifestFile manifest : current.allManifests(io)) {
      read(table, manifest, dataFiles::add, deleteFiles::add);
    }

    Set<String> dataLocations = new HashSet<>();
    for (DataFile file : dataFiles) {
      assertThat(dataLocations.add(file.location())).as("%s: data file %s named twice", what, file.location()).isTrue();
      checkSize(io, file, sizes, what);
    }
    Set<String> deleteNames = new HashSet<>();
    Set<String> vectorTargets = new HashSet<>();
    for (DeleteFile file : deleteFiles) {
      boolean vector = ContentFileUtil.isDV(file);
      String name = vector ? file.location() + "@" + file.contentOffset() : file.location();
      assertThat(deleteNames.add(name)).as("%s: delete file %s named twice", what, name).isTrue();
      if (vector) {
        assertThat(vectorTargets.add(file.referencedDataFile()))
            .as("%s: data file %s has two deletion vectors", what, file.referencedDataFile()).isTrue();
        assertThat(dataLocations).as("%s: the data file of deletion vector %s", what, name)
            .contains(file.referencedDataFile());
      } else if (file.content() == FileContent.POSITION_DELETES && file.referencedDataFile() != null) {
        assertThat(dataLocations).as("%s: the data file of position delete file %s", what, name)
            .contains(file.referencedDataFile());
      }
      checkSize(io, file, sizes, what);
    }

    // every snapshot kept must still find its files
    Set<String> manifestsSeen = new HashSet<>();
    Set<String> filesSeen = new HashSet<>(sizes.keySet());
    for (Snapshot snapshot : table.snapshots()) {
      assertThat(io.newInputFile(snapshot.manifestListLocation()).exists())
          .as("%s: manifest list of snapshot %d", what, snapshot.snapshotId()).isTrue();
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        if (!manifestsSeen.add(manifest.path())) {
          continue;
        }
        assertThat(io.newInputFile(manifest.path()).exists())
            .as("%s: manifest %s of snapshot %d", what, manifest.path(), snapshot.snapshotId()).isTrue();
        read(table, manifest, file -> exists(io, file, filesSeen, snapshot, what),
            file -> exists(io, file, filesSeen, snapshot, what));
      }
    }
    return new Current(dataFiles, deleteFiles);
  }

  private static void read(Table table, ManifestFile manifest, java.util.function.Consumer<DataFile> data,
      java.util.function.Consumer<DeleteFile> deletes) {
    try {
      if (manifest.content() == org.apache.iceberg.ManifestContent.DATA) {
        try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, table.io(), table.specs())) {
          reader.forEach(file -> data.accept(file.copy()));
        }
      } else {
        try (ManifestReader<DeleteFile> reader = ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
          reader.forEach(file -> deletes.accept(file.copy()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
    }
  }

  private static void checkSize(FileIO io, ContentFile<?> file, Map<String, Long> sizes, String what) {
    Long size = sizes.get(file.location());
    if (size == null) {
      InputFile input = io.newInputFile(file.location());
      assertThat(input.exists()).as("%s: %s file %s exists", what, file.content(), file.location()).isTrue();
      size = input.getLength();
      sizes.put(file.location(), size);
    }
    assertThat(size).as("%s: size of %s file %s, against its manifest", what, file.content(), file.location())
        .isEqualTo(file.fileSizeInBytes());
  }

  private static void exists(FileIO io, ContentFile<?> file, Set<String> seen, Snapshot snapshot, String what) {
    if (seen.add(file.location())) {
      assertThat(io.newInputFile(file.location()).exists())
          .as("%s: %s file %s of snapshot %d exists", what, file.content(), file.location(), snapshot.snapshotId())
          .isTrue();
    }
  }
}
