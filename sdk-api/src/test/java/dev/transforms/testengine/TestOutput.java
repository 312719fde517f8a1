package dev.transforms.testengine;

import dev.transforms.api.Handle;
import dev.transforms.api.TableOutput;
import java.util.List;

/** An output handle of the test engine: appends ids to a one-column table. */
@Handle(engine = "test", role = Handle.Role.OUTPUT, paths = {TableOutput.class}, artifact = "dev.transforms:test-engine")
public interface TestOutput {
  /** Appends ids, creating the table ({@code id bigint}) if needed. */
  void append(long... ids);

  /** Commits an append of no file: a snapshot that changes no row, as an empty DataFrame's append does. */
  void appendNothing();

  /** Deletes every row (a 'delete' snapshot). */
  void deleteAll();

  /** @return ids visible to the transform right now (its staging branch) */
  List<Long> ids();

  /** @return the staged table, creating it ({@code id bigint}) if needed */
  org.apache.iceberg.Table table();

  /** Adds an optional string column the way an engine's write of a wider schema does. */
  void addColumn(String name);
}
