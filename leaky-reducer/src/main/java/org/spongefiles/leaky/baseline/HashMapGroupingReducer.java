package org.spongefiles.leaky.baseline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Reducer;
import org.spongefiles.leaky.WritableCopier;
import org.spongefiles.leaky.mapreduce.LeakyGroupingReducer;
import org.spongefiles.leaky.mapreduce.SubKeyed;

/**
 * The conventional way to do what {@link LeakyGroupingReducer} does, kept for comparisons: each
 * reduce call collects copies of its values in a {@code HashMap<S, List<V>>} (Hadoop reuses the
 * value object, so every value is copied), then hands each sub-group to {@link #reduceGroup}. One
 * or more live objects per value until the call ends: the memory pressure the Leaky Buffer paper
 * diagnoses.
 */
public abstract class HashMapGroupingReducer<
        KIN extends Writable, S extends Writable, V extends Writable, KOUT, VOUT>
    extends Reducer<KIN, SubKeyed<S, V>, KOUT, VOUT> {
  private WritableCopier<S> subKeys;
  private WritableCopier<V> values;

  /** Same contract as {@link LeakyGroupingReducer#reduceGroup}. */
  protected abstract void reduceGroup(KIN key, S subKey, Iterable<V> values, Context context)
      throws IOException, InterruptedException;

  @Override
  @SuppressWarnings("unchecked")
  protected void reduce(KIN key, Iterable<SubKeyed<S, V>> input, Context context)
      throws IOException, InterruptedException {
    Map<S, List<V>> groups = new HashMap<>();
    for (SubKeyed<S, V> value : input) {
      if (subKeys == null) {
        subKeys = new WritableCopier<>((Class<S>) value.subKey().getClass(), null);
        values = new WritableCopier<>((Class<V>) value.value().getClass(), null);
      }
      List<V> list = groups.get(value.subKey());
      if (list == null) {
        list = new ArrayList<>();
        groups.put(subKeys.copy(value.subKey()), list);
      }
      list.add(values.copy(value.value()));
    }
    for (Map.Entry<S, List<V>> group : groups.entrySet()) {
      reduceGroup(key, group.getKey(), group.getValue(), context);
    }
  }
}
