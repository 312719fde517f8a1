package dev.transforms.testengine;

import dev.transforms.api.Handle;
import dev.transforms.api.Input;
import dev.transforms.api.TableInput;
import java.util.List;
import java.util.OptionalLong;

/** An input handle of the test engine: the ids of a one-column table. */
@Handle(engine = "test", role = Handle.Role.INPUT, paths = {TableInput.class, Input.class}, artifact = "dev.transforms:test-engine")
public interface TestInput {
  /** @return every id at the pinned snapshot */
  List<Long> ids();

  /** @return ids added since the last build when incremental, else all */
  List<Long> addedIds();

  /** @return the pinned snapshot */
  OptionalLong currentSnapshotId();

  /** @return the snapshot the last build consumed */
  OptionalLong previousSnapshotId();
}
