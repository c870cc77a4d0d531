package org.spongefiles.merger;

import java.io.IOException;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapred.Task.CombineValuesIterator;
import org.apache.hadoop.util.ReflectionUtils;

/** A combiner of the {@code org.apache.hadoop.mapred} API, run as Hadoop's merger runs it. */
final class OldApiCombiner<K, V> implements Combiner<K, V> {
  private final JobConf conf;
  private final Class<? extends Reducer<K, V, K, V>> combinerClass;
  private final CombineOutputCollector<K, V> collector;
  private final Counters.Counter inputRecords;

  OldApiCombiner(
      JobConf conf,
      Class<? extends Reducer<K, V, K, V>> combinerClass,
      CombineOutputCollector<K, V> collector,
      Counters.Counter inputRecords) {
    this.conf = conf;
    this.combinerClass = combinerClass;
    this.collector = collector;
    this.inputRecords = inputRecords;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void combine(RawKeyValueIterator input, IFile.Writer<K, V> output) throws IOException {
    collector.setWriter(output);
    Reducer<K, V, K, V> combiner = ReflectionUtils.newInstance(combinerClass, conf);
    try {
      CombineValuesIterator<K, V> values =
          new CombineValuesIterator<>(
              input,
              (RawComparator<K>) conf.getCombinerKeyGroupingComparator(),
              (Class<K>) conf.getMapOutputKeyClass(),
              (Class<V>) conf.getMapOutputValueClass(),
              conf,
              Reporter.NULL,
              inputRecords);
      while (values.more()) {
        combiner.reduce(values.getKey(), values, collector, Reporter.NULL);
        values.nextKey();
      }
    } finally {
      combiner.close();
      collector.setWriter(null);
    }
  }
}
