package org.spongefiles.merger;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;

/** Finds the job's combiner, of either API, for the in-memory merges. */
final class Combiners {
  private Combiners() {}

  /** The job's combiner, or null when it has none. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static <K, V> Combiner<K, V> forJob(ShuffleConsumerPlugin.Context context) {
    JobConf conf = context.getJobConf();
    Reporter reporter = context.getReporter();
    Class oldApi = context.getCombinerClass();
    Class newApi =
        conf.getClass(
            MRJobConfig.COMBINE_CLASS_ATTR, null, org.apache.hadoop.mapreduce.Reducer.class);
    if (oldApi == null && newApi == null) {
      return null;
    }
    CombineOutputCollector<K, V> collector = context.getCombineCollector();
    if (collector == null) {
      collector =
          new CombineOutputCollector<>(
              reporter.getCounter(TaskCounter.COMBINE_OUTPUT_RECORDS), reporter, conf);
    }
    if (oldApi != null) {
      return new OldApiCombiner<K, V>(
          conf, oldApi, collector, context.getReduceCombineInputCounter());
    }
    return new NewApiCombiner<K, V>(
        conf,
        context.getReduceId(),
        newApi,
        collector,
        context.getReduceCombineInputCounter(),
        reporter);
  }
}
