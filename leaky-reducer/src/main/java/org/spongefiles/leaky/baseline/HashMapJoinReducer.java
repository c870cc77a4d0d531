package org.spongefiles.leaky.baseline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.Reducer;
import org.spongefiles.leaky.WritableCopier;
import org.spongefiles.leaky.mapreduce.JoinKey;
import org.spongefiles.leaky.mapreduce.JoinValue;
import org.spongefiles.leaky.mapreduce.LeakyJoinReducer;

/**
 * The conventional way to do what {@link LeakyJoinReducer} does, kept for comparisons: the build
 * side of the whole partition is collected as copied objects in a {@code HashMap<K, List<B>>}, then
 * each probe-side value is joined against it. Same map output types and contract.
 */
public abstract class HashMapJoinReducer<
        K extends WritableComparable<?>, B extends Writable, P extends Writable, KOUT, VOUT>
    extends Reducer<JoinKey<K>, JoinValue<B, P>, KOUT, VOUT> {
  private final Map<K, List<B>> table = new HashMap<>();
  private WritableCopier<K> keys;
  private WritableCopier<B> builds;
  private long unmatched;

  /** Same contract as {@link LeakyJoinReducer#join}. */
  protected abstract void join(K key, B build, P probe, Context context)
      throws IOException, InterruptedException;

  @Override
  @SuppressWarnings("unchecked")
  protected void reduce(JoinKey<K> key, Iterable<JoinValue<B, P>> values, Context context)
      throws IOException, InterruptedException {
    if (key.side() == JoinKey.BUILD) {
      List<B> list = null;
      for (JoinValue<B, P> value : values) {
        if (keys == null) {
          keys = new WritableCopier<>((Class<K>) key.key().getClass(), null);
          builds = new WritableCopier<>((Class<B>) value.build().getClass(), null);
        }
        if (list == null) {
          list = table.computeIfAbsent(keys.copy(key.key()), k -> new ArrayList<>());
        }
        list.add(builds.copy(value.build()));
      }
      return;
    }
    List<B> matches = table.get(key.key());
    for (JoinValue<B, P> value : values) {
      if (matches == null) {
        unmatched++;
        continue;
      }
      for (B build : matches) {
        join(key.key(), build, value.probe(), context);
      }
    }
  }

  @Override
  protected void cleanup(Context context) {
    context
        .getCounter("SpongeFiles leaky buffer", LeakyJoinReducer.UNMATCHED_PROBES)
        .increment(unmatched);
    table.clear();
  }
}
