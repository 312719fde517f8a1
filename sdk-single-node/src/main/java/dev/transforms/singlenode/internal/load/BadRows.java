package dev.transforms.singlenode.internal.load;

import dev.transforms.api.BadRowsException;
import java.util.ArrayList;
import java.util.List;

/** The bad rows met while reading the files of one load: the first ones in full, all of them counted. */
final class BadRows {
  private final List<String> listed = new ArrayList<>();
  private long count;

  /**
   * Records a bad row.
   *
   * @param where {@code FILE:LINE} or {@code FILE:LINE:FIELD}
   */
  void add(String where, String what) {
    count++;
    if (listed.size() < BadRowsException.LISTED) {
      listed.add(where + ": " + what);
    }
  }

  boolean isEmpty() {
    return count == 0;
  }

  BadRowsException exception() {
    return new BadRowsException(count, listed);
  }
}
