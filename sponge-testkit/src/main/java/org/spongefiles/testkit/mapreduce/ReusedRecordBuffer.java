package org.spongefiles.testkit.mapreduce;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * Reduce input as Hadoop's merger hands it over: each record's key and value are views of one
 * buffer that the next record overwrites, so a reducer that keeps a reference instead of a copy is
 * caught. Subclasses say where the records come from in {@link #next}, calling {@link #record}.
 */
public abstract class ReusedRecordBuffer implements RawKeyValueIterator {
  private final DataInputBuffer key = new DataInputBuffer();
  private final DataInputBuffer value = new DataInputBuffer();
  private final Progress progress = new Progress();

  /** Makes the current record the key at {@code start} and the value right after it. */
  protected final void record(byte[] buffer, int start, int keyLength, int valueLength) {
    key.reset(buffer, start, keyLength);
    value.reset(buffer, start + keyLength, valueLength);
  }

  @Override
  public final DataInputBuffer getKey() {
    return key;
  }

  @Override
  public final DataInputBuffer getValue() {
    return value;
  }

  @Override
  public final Progress getProgress() {
    return progress;
  }

  @Override
  public void close() throws IOException {}
}
