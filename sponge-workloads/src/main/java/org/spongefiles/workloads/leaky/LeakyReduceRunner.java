package org.spongefiles.workloads.leaky;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
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
import org.apache.hadoop.util.ReflectionUtils;
import org.spongefiles.leaky.mapreduce.CountersReporter;

/**
 * Runs one reduce task's reduce phase the way Hadoop's ReduceTask does (a {@code ReduceContextImpl}
 * wrapped by {@code WrappedReducer}, the reducer's own {@code run}) over a {@link LeakyInputFile},
 * with no job around it: the output goes to an order-insensitive digest instead of a file, as the
 * paper did not write job results to disk.
 */
public final class LeakyReduceRunner {
  final Counters counters = new Counters();
  long outputRecords;
  long digest;

  /** Runs {@code reducerClass} over {@code input}. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  public void run(
      Configuration conf,
      Path input,
      Class<? extends Reducer> reducerClass,
      Class<? extends WritableComparable> keyClass,
      Class<?> valueClass)
      throws IOException, InterruptedException {
    conf.setClass(MRJobConfig.MAP_OUTPUT_KEY_CLASS, keyClass, Object.class);
    conf.setClass(MRJobConfig.MAP_OUTPUT_VALUE_CLASS, valueClass, Object.class);
    TaskAttemptID attempt = new TaskAttemptID("leakybench", 1, TaskType.REDUCE, 0, 0);
    try (LeakyInputFile.Reader reader = new LeakyInputFile.Reader(input)) {
      ReduceContextImpl context =
          new ReduceContextImpl(
              conf,
              attempt,
              reader,
              counters.findCounter(TaskCounter.REDUCE_INPUT_GROUPS),
              counters.findCounter(TaskCounter.REDUCE_INPUT_RECORDS),
              new DigestWriter(),
              null,
              new CountersReporter(counters),
              WritableComparator.get(keyClass, conf),
              keyClass,
              valueClass);
      Reducer reducer = ReflectionUtils.newInstance(reducerClass, conf);
      reducer.run(new WrappedReducer().getReducerContext(context));
    }
  }

  /** Sums a 64-bit hash of every output record: equal sums, equal outputs (up to order). */
  private final class DigestWriter extends RecordWriter<Object, Object> {
    @Override
    public void write(Object key, Object value) {
      long h = key.hashCode() * 0x9E3779B97F4A7C15L + value.hashCode();
      h ^= h >>> 31;
      digest += h * 0xBF58476D1CE4E5B9L;
      outputRecords++;
    }

    @Override
    public void close(TaskAttemptContext context) {}
  }
}
