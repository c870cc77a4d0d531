package org.spongefiles.bag;

import java.io.IOException;
import java.util.Iterator;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.run.RunWriter;
import org.spongefiles.bag.run.TupleSource;

/**
 * A bag's iterator over a {@link TupleSource}. Like Pig's own bags' iterators, {@link #next()}
 * returns null once the bag is exhausted. It holds its bag, so a bag being read is never cleaned up
 * under its reader.
 */
final class SourceIterator implements Iterator<Tuple> {
  private final SpongeBag bag;
  private final TupleSource source;
  private Tuple buffered;
  private boolean fetched;
  private long returned;

  SourceIterator(SpongeBag bag, TupleSource source) {
    this.bag = bag;
    this.source = source;
  }

  @Override
  public boolean hasNext() {
    if (!fetched) {
      buffered = fetch();
      fetched = true;
    }
    return buffered != null;
  }

  @Override
  public Tuple next() {
    if (!fetched) {
      buffered = fetch();
    }
    fetched = false;
    Tuple tuple = buffered;
    buffered = null;
    if ((returned++ & 0x3ff) == 0) {
      RunWriter.reportProgress();
    }
    return tuple;
  }

  private Tuple fetch() {
    try {
      return source.next();
    } catch (IOException e) {
      source.close();
      throw new IllegalStateException(
          "Unable to read back a run of a bag of " + bag.owner().taskId() + ": " + e, e);
    }
  }
}
