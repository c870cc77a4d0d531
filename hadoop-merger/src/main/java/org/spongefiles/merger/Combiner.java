package org.spongefiles.merger;

import java.io.IOException;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;

/**
 * The job's combiner, run over merged records on their way into a SpongeFile. Whatever its API, its
 * output goes through the collector that counts COMBINE_OUTPUT_RECORDS, into the merge's writer.
 */
abstract class Combiner<K, V> {
  final JobConf conf;
  final CombineOutputCollector<K, V> collector;
  final Counters.Counter inputRecords;

  Combiner(JobConf conf, CombineOutputCollector<K, V> collector, Counters.Counter inputRecords) {
    this.conf = conf;
    this.collector = collector;
    this.inputRecords = inputRecords;
  }

  /** Combines the sorted records of {@code input} group by group and appends the results. */
  final void combine(RawKeyValueIterator input, IFile.Writer<K, V> output) throws IOException {
    collector.setWriter(output);
    try {
      run(input);
    } finally {
      collector.setWriter(null);
    }
  }

  /** Runs a new instance of the job's combiner over {@code input}, collecting into collector. */
  abstract void run(RawKeyValueIterator input) throws IOException;

  /** The comparator that groups the combiner's input by key. */
  @SuppressWarnings("unchecked")
  final RawComparator<K> grouping() {
    return (RawComparator<K>) conf.getCombinerKeyGroupingComparator();
  }

  @SuppressWarnings("unchecked")
  final Class<K> keyClass() {
    return (Class<K>) conf.getMapOutputKeyClass();
  }

  @SuppressWarnings("unchecked")
  final Class<V> valueClass() {
    return (Class<V>) conf.getMapOutputValueClass();
  }
}
