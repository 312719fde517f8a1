package dev.transforms.singlenode.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A thread keeps its page decoder's scratch buffers from read to read, and a read that starts while another
 * read on the same thread holds them gets buffers of its own: two reads never decode into one array.
 */
class ThreadBuffersTest {

  @Test
  void aSecondReadOnTheThreadGetsItsOwnBuffersAndTheNextReadTheKeptOnes() {
    ArrowColumnPages.Buffers first = ArrowColumnPages.Buffers.ofThisThread();
    first.file = new byte[1024]; // what a unit's read grew them to

    ArrowColumnPages.Buffers inside = ArrowColumnPages.Buffers.ofThisThread();
    inside.giveBack();
    first.giveBack();
    ArrowColumnPages.Buffers next = ArrowColumnPages.Buffers.ofThisThread();
    next.giveBack();

    assertThat(inside).isNotSameAs(first);
    assertThat(next).isSameAs(first);
    assertThat(next.file).hasSize(1024);
  }
}
