package org.spongefiles.leaky.mapreduce;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.leaky.ValueBytes;

/**
 * Feeds a reduce task's input to a {@link RecordSink}, with the values either still serialized
 * ({@link ValueBytes#RAW}: read from Hadoop's raw iterator, only keys are deserialized) or as
 * Hadoop deserialized them ({@link ValueBytes#RESERIALIZE}: the context's public iteration).
 * Groups, counters and progress follow what the context itself does.
 */
final class ReduceInput {
  private static final Logger LOG = LoggerFactory.getLogger(ReduceInput.class);

  private ReduceInput() {}

  /** A new, configured instance of the input's key class (the job's map output key class). */
  @SuppressWarnings("unchecked")
  static <T> T newKey(JobContext context) {
    return (T)
        ReflectionUtils.newInstance(context.getMapOutputKeyClass(), context.getConfiguration());
  }

  /** A new, configured instance of the input's value class (the job's map output value class). */
  @SuppressWarnings("unchecked")
  static <T> T newValue(JobContext context) {
    return (T)
        ReflectionUtils.newInstance(context.getMapOutputValueClass(), context.getConfiguration());
  }

  /** The class of {@code part}, a part of a key or value instance, as its declared type. */
  @SuppressWarnings("unchecked")
  static <T> Class<T> classOf(T part) {
    return (Class<T>) part.getClass();
  }

  /**
   * Reads the whole input of {@code context} in {@code mode} (the job's {@code
   * sponge.leaky.value.bytes}).
   *
   * @return the mode actually used (RAW falls back to RESERIALIZE when Hadoop's internals are not
   *     reachable)
   */
  static <KIN extends Writable, VIN> ValueBytes drive(
      Reducer<KIN, VIN, ?, ?>.Context context, ValueBytes mode, RecordSink<KIN, VIN> sink)
      throws IOException, InterruptedException {
    if (mode == ValueBytes.RAW) {
      RawReduceInput raw = RawReduceInput.of(context);
      if (raw != null) {
        driveRaw(context, raw, sink);
        return ValueBytes.RAW;
      }
      LOG.warn(
          "Raw reduce input is not reachable under {}; re-serializing values instead",
          context.getClass().getName());
    }
    while (context.nextKey()) {
      for (VIN value : context.getValues()) {
        sink.record(context.getCurrentKey(), value);
      }
      sink.groupEnd(context.getCurrentKey());
    }
    return ValueBytes.RESERIALIZE;
  }

  @SuppressWarnings("unchecked")
  private static <KIN extends Writable, VIN> void driveRaw(
      Reducer<KIN, VIN, ?, ?>.Context context, RawReduceInput raw, RecordSink<KIN, VIN> sink)
      throws IOException, InterruptedException {
    Class<KIN> keyClass = (Class<KIN>) context.getMapOutputKeyClass();
    KIN key = ReflectionUtils.newInstance(keyClass, context.getConfiguration());
    DataInputBuffer keyIn = new DataInputBuffer();
    byte[] groupKey = new byte[64];
    int groupKeyLength = 0;
    boolean inGroup = false;
    long records = 0;
    while (raw.hasMore()) {
      DataInputBuffer rawKey = raw.key();
      int start = rawKey.getPosition();
      int length = rawKey.getLength() - start;
      if (inGroup
          && raw.groupingComparator()
                  .compare(groupKey, 0, groupKeyLength, rawKey.getData(), start, length)
              != 0) {
        sink.groupEnd(key);
        inGroup = false;
      }
      if (!inGroup) {
        if (groupKey.length < length) {
          groupKey = new byte[Math.max(length, groupKey.length * 2)];
        }
        System.arraycopy(rawKey.getData(), start, groupKey, 0, length);
        groupKeyLength = length;
        inGroup = true;
        raw.keyCounter().increment(1);
      }
      keyIn.reset(rawKey.getData(), start, length);
      key.readFields(keyIn);
      sink.rawRecord(key, raw.value());
      raw.valueCounter().increment(1);
      raw.next();
      if ((++records & 0xFFF) == 0) {
        context.progress();
      }
    }
    if (inGroup) {
      sink.groupEnd(key);
    }
    raw.finish();
  }
}
