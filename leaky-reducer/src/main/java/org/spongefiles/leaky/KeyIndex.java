package org.spongefiles.leaky;

import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import org.apache.hadoop.io.Writable;

/**
 * The control information: each distinct key, copied once, mapped to a dense slot number in the
 * order keys first arrived. Keys need value-based {@code equals} and {@code hashCode}, as Hadoop's
 * WritableComparables have; keys with equal hash codes are told apart by {@code equals}.
 */
final class KeyIndex<K extends Writable> {
  private final Object2IntOpenHashMap<K> slots = new Object2IntOpenHashMap<>();
  private final ObjectArrayList<K> keys = new ObjectArrayList<>();
  private final WritableCopier<K> copier;

  KeyIndex(WritableCopier<K> copier) {
    this.copier = copier;
    slots.defaultReturnValue(-1);
  }

  /** The slot of {@code key}, adding a copy of it when it is new. */
  int slotFor(K key) {
    int slot = slots.getInt(key);
    if (slot < 0) {
      K copy = copier.copy(key);
      slot = keys.size();
      keys.add(copy);
      slots.put(copy, slot);
    }
    return slot;
  }

  /** The slot of {@code key}, or -1. */
  int find(K key) {
    return slots.getInt(key);
  }

  K key(int slot) {
    return keys.get(slot);
  }

  int size() {
    return keys.size();
  }

  void clear() {
    slots.clear();
    keys.clear();
    slots.trim();
    keys.trim();
  }
}
