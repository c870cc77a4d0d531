package org.spongefiles.merger;

import java.io.IOException;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapred.Task.CombineValuesIterator;
import org.apache.hadoop.util.ReflectionUtils;

/** A combiner of the {@code org.apache.hadoop.mapred} API, run as Hadoop's merger runs it. */
final class OldApiCombiner<K, V> extends Combiner<K, V> {
  private final Class<? extends Reducer<K, V, K, V>> combinerClass;

  OldApiCombiner(
      JobConf conf,
      Class<? extends Reducer<K, V, K, V>> combinerClass,
      CombineOutputCollector<K, V> collector,
      Counters.Counter inputRecords) {
    super(conf, collector, inputRecords);
    this.combinerClass = combinerClass;
  }

  @Override
  void run(RawKeyValueIterator input) throws IOException {
    Reducer<K, V, K, V> combiner = ReflectionUtils.newInstance(combinerClass, conf);
    try {
      CombineValuesIterator<K, V> values =
          new CombineValuesIterator<>(
              input, grouping(), keyClass(), valueClass(), conf, Reporter.NULL, inputRecords);
      while (values.more()) {
        combiner.reduce(values.getKey(), values, collector, Reporter.NULL);
        values.nextKey();
      }
    } finally {
      combiner.close();
    }
  }
}
