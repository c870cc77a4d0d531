package org.spongefiles.leaky.mapreduce;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;

/** What a reducer helper does with each reduce input record, fed by {@link ReduceInput}. */
interface RecordSink<KIN, VIN> {

  /**
   * A record whose value is still serialized: {@code value}'s bytes run from its position to its
   * length and are valid only during this call.
   */
  void rawRecord(KIN key, DataInputBuffer value) throws IOException, InterruptedException;

  /** A record whose value Hadoop deserialized (into an object it reuses). */
  void record(KIN key, VIN value) throws IOException, InterruptedException;

  /** After the last record of one reduce group; {@code key} is that record's key. */
  void groupEnd(KIN key) throws IOException, InterruptedException;
}
