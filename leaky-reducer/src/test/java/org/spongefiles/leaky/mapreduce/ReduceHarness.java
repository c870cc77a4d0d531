package org.spongefiles.leaky.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.spongefiles.testkit.mapreduce.ReusedRecordBuffer;

/**
 * Runs a reducer the way a reduce task does, through Hadoop's own {@code ReduceContextImpl} and
 * {@code WrappedReducer}, over records sorted in memory: the reducer sees exactly the context a
 * real task gives it, without a job around it.
 */
final class ReduceHarness {
  final List<String> output = new ArrayList<>();
  final Counters counters = new Counters();

  private final List<byte[][]> records = new ArrayList<>();
  private boolean sort = true;
  private final DataOutputBuffer buffer = new DataOutputBuffer();

  /** Feeds the records in the order added instead of sorting them (to test bad input). */
  ReduceHarness unsorted() {
    sort = false;
    return this;
  }

  /** Adds one map output record. */
  void add(Writable key, Writable value) throws IOException {
    records.add(new byte[][] {serialize(key), serialize(value)});
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  void run(
      Reducer<?, ?, Object, Object> reducer,
      Configuration conf,
      Class<?> keyClass,
      Class<?> valueClass)
      throws Exception {
    conf.setClass(MRJobConfig.MAP_OUTPUT_KEY_CLASS, keyClass, Object.class);
    conf.setClass(MRJobConfig.MAP_OUTPUT_VALUE_CLASS, valueClass, Object.class);
    WritableComparator comparator =
        WritableComparator.get(keyClass.asSubclass(WritableComparable.class), conf);
    List<byte[][]> sorted = new ArrayList<>(records);
    if (sort) {
      sorted.sort((a, b) -> comparator.compare(a[0], 0, a[0].length, b[0], 0, b[0].length));
    }
    TaskAttemptID attempt = new TaskAttemptID("harness", 1, TaskType.REDUCE, 0, 0);
    ReduceContextImpl context =
        new ReduceContextImpl(
            conf,
            attempt,
            new ListIterator(sorted),
            counters.findCounter(TaskCounter.REDUCE_INPUT_GROUPS),
            counters.findCounter(TaskCounter.REDUCE_INPUT_RECORDS),
            new Collector(),
            null,
            new CountersReporter(counters),
            comparator,
            keyClass,
            valueClass);
    ((Reducer) reducer).run(new WrappedReducer().getReducerContext(context));
  }

  long counter(String group, String name) {
    return counters.findCounter(group, name).getValue();
  }

  private byte[] serialize(Writable writable) throws IOException {
    buffer.reset();
    writable.write(buffer);
    return Arrays.copyOf(buffer.getData(), buffer.getLength());
  }

  /** Records in memory, in a buffer reused from one record to the next as Hadoop's merger does. */
  private static final class ListIterator extends ReusedRecordBuffer {
    private final List<byte[][]> records;
    private final byte[] shared = new byte[1 << 16];
    private int next;

    ListIterator(List<byte[][]> records) {
      this.records = records;
    }

    @Override
    public boolean next() {
      if (next >= records.size()) {
        return false;
      }
      byte[][] record = records.get(next++);
      // Key and value share one buffer that the next record overwrites.
      System.arraycopy(record[0], 0, shared, 7, record[0].length);
      System.arraycopy(record[1], 0, shared, 7 + record[0].length, record[1].length);
      record(shared, 7, record[0].length, record[1].length);
      return true;
    }
  }

  private final class Collector extends RecordWriter<Object, Object> {
    @Override
    public void write(Object key, Object value) {
      output.add(key + "\t" + value);
    }

    @Override
    public void close(TaskAttemptContext context) {}
  }
}
