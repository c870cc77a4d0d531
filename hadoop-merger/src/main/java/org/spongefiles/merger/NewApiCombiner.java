package org.spongefiles.merger;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * A combiner of the {@code org.apache.hadoop.mapreduce} API. Hadoop's own reduce-side merger runs
 * only old-API combiners (its plugin context carries no other), so a new-API job's in-memory merges
 * are combined here and not there; the output is the same, the spills are smaller.
 */
final class NewApiCombiner<K, V> extends Combiner<K, V> {
  private final TaskAttemptID reduceId;
  private final Class<? extends Reducer<K, V, K, V>> combinerClass;
  private final Reporter reporter;

  NewApiCombiner(
      JobConf conf,
      TaskAttemptID reduceId,
      Class<? extends Reducer<K, V, K, V>> combinerClass,
      CombineOutputCollector<K, V> collector,
      Counters.Counter inputRecords,
      Reporter reporter) {
    super(conf, collector, inputRecords);
    this.reduceId = reduceId;
    this.combinerClass = combinerClass;
    this.reporter = reporter;
  }

  @Override
  void run(RawKeyValueIterator input) throws IOException {
    Reducer<K, V, K, V> combiner = ReflectionUtils.newInstance(combinerClass, conf);
    try {
      ReduceContextImpl<K, V, K, V> context =
          new ReduceContextImpl<>(
              conf,
              reduceId,
              input,
              null,
              inputRecords,
              new CollectorWriter(),
              null,
              new ReporterAdapter(reporter),
              grouping(),
              keyClass(),
              valueClass());
      combiner.run(new WrappedReducer<K, V, K, V>().getReducerContext(context));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("combiner of " + reduceId + " interrupted");
    }
  }

  /** The combiner's output goes through the collector that counts COMBINE_OUTPUT_RECORDS. */
  private final class CollectorWriter extends RecordWriter<K, V> {
    @Override
    public void write(K key, V value) throws IOException {
      collector.collect(key, value);
    }

    @Override
    public void close(TaskAttemptContext context) {
      // The writer belongs to the merge, which closes it.
    }
  }

  /** The task's reporter as the new API sees it, so a combiner's own counters reach the job. */
  private static final class ReporterAdapter extends StatusReporter {
    private final Reporter reporter;

    ReporterAdapter(Reporter reporter) {
      this.reporter = reporter;
    }

    @Override
    public Counter getCounter(Enum<?> name) {
      return reporter.getCounter(name);
    }

    @Override
    public Counter getCounter(String group, String name) {
      return reporter.getCounter(group, name);
    }

    @Override
    public void progress() {
      reporter.progress();
    }

    @Override
    public float getProgress() {
      return reporter.getProgress();
    }

    @Override
    public void setStatus(String status) {
      reporter.setStatus(status);
    }
  }
}
