package org.spongefiles.leaky;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Writable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ParsedConfig;

/**
 * The leaky-buffer hashtable (Liu and Ng): keys are kept as objects (the control information);
 * values are kept as their serialized bytes in large arrays and deserialized, into one reused
 * object, only when a group is iterated. So a table of a million values holds a few large arrays
 * instead of a million objects for the collector to trace.
 *
 * <pre>{@code
 * try (LeakyHashTable<Text, IntWritable> table =
 *     LeakyHashTable.builder(Text.class, IntWritable.class)
 *         .conf(conf)
 *         .taskAttempt(context.getTaskAttemptID().toString())
 *         .build()) {
 *   table.put(word, count);                  // copies the key once, serializes the value
 *   for (Group<Text, IntWritable> group : table.groups()) {
 *     for (IntWritable c : group.values()) { ... }   // one reused IntWritable
 *   }
 * }
 * }</pre>
 *
 * <p>Layouts ({@link Layout}): one shared paged log with per-key value addresses, or one growable
 * array per key, set by {@code sponge.leaky.layout} or chosen from the load factor the table
 * observes. When value bytes and their indexes pass {@code sponge.leaky.budget}, value pages move
 * to SpongeFiles (the node's pool, remote servers, disk) and are read back when iterated, instead
 * of growing the heap. Not thread-safe; do not put while iterating.
 */
public final class LeakyHashTable<K extends Writable, V extends Writable> implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(LeakyHashTable.class);
  private static final AtomicLong TABLES = new AtomicLong();

  private final LeakySettings settings;
  private final KeyIndex<K> index;
  private final ValueCodec<V> codec = new ValueCodec<>();
  private final LoadFactorEstimate loadFactor = new LoadFactorEstimate();
  private final V reused;
  private final Overflow overflow;
  private final String name;
  private ValueStore store;
  private boolean decided;
  private boolean mayRevise;
  private long nextSpillAt;
  private long keysSeen;
  private long values;
  private long valueBytes;
  private long peakHeap;
  private long spills;
  private long failedSpills;
  private int failuresInARow;
  private int modCount;
  private boolean closed;

  private LeakyHashTable(Builder<K, V> builder) {
    Configuration conf = builder.conf;
    ParsedConfig values = builder.values;
    if (values == null) {
      values = builder.task != null ? ConfigCheck.validate(conf, new LeakyOptions()) : parse(conf);
    }
    this.settings = new LeakySettings(values);
    this.index = new KeyIndex<>(new WritableCopier<>(builder.keyClass, conf));
    this.reused = new WritableCopier<>(builder.valueClass, conf).newInstance();
    this.name = builder.taskAttempt + "-leaky";
    if (builder.task != null) {
      SpongeTask task = builder.task;
      this.overflow = new Overflow(() -> task, false, name);
    } else {
      String taskAttempt = builder.taskAttempt;
      ParsedConfig spongeValues = values;
      this.overflow =
          new Overflow(
              () -> {
                try {
                  return SpongeTask.open(spongeValues, conf, taskAttempt + "-leaky");
                } catch (IOException e) {
                  throw new UncheckedIOException(
                      "cannot open SpongeFiles for the overflow of " + taskAttempt, e);
                }
              },
              true,
              name);
    }
    this.store =
        settings.layout == Layout.PER_KEY
            ? new PerKeyStore(settings.pageSize, overflow)
            : new SharedLogStore(settings.pageSize, overflow);
    this.decided = settings.layout != Layout.AUTO;
    this.mayRevise = !decided;
    this.nextSpillAt = settings.budget;
  }

  /**
   * Parses and checks, once, every key a table of a task reads: {@link LeakyOptions} with
   * sponge-core's (its overflow's SpongeFiles are opened with these values). A task that builds
   * tables itself parses once and gives each table the result ({@link Builder#parsed}).
   *
   * @throws org.spongefiles.core.config.ConfigException naming the key and value of the first
   *     unusable setting
   */
  public static ParsedConfig parse(Configuration conf) {
    return SpongeTask.parse(conf, new LeakyOptions());
  }

  /** Starts a table of keys of {@code keyClass} and values of {@code valueClass}. */
  public static <K extends Writable, V extends Writable> Builder<K, V> builder(
      Class<K> keyClass, Class<V> valueClass) {
    return new Builder<>(keyClass, valueClass);
  }

  /** Adds {@code value} (serialized now; the object can be reused) to the values of {@code key}. */
  public void put(K key, V value) throws IOException {
    Objects.requireNonNull(value, "value cannot be null");
    codec.serialize(value);
    putBytes(key, codec.bytes(), 0, codec.length());
  }

  /**
   * Adds a value given as the bytes its class's {@code write} produced (bytes {@code [offset,
   * offset + length)} are copied now) to the values of {@code key}.
   */
  public void putBytes(K key, byte[] bytes, int offset, int length) throws IOException {
    Objects.requireNonNull(key, "key cannot be null");
    Objects.checkFromIndexSize(offset, length, bytes.length);
    checkOpen();
    int keysBefore = index.size();
    int slot = index.slotFor(key);
    keysSeen += index.size() - keysBefore;
    modCount++;
    values++;
    valueBytes += length;
    if (!decided) {
      loadFactor.observe(values, keysSeen);
      if (values >= settings.autoSample
          || store.heapBytes() + store.growth(slot, length) >= settings.budget / 2) {
        decide();
      }
    } else if (mayRevise
        && store.indexBytes() > settings.budget / 4
        && store.indexBytes() > 2 * PerKeyStore.pinnedEstimate(index.size())) {
      revise();
    }
    // The budget is a ceiling: make room before the append allocates, not after.
    long growth = store.growth(slot, length);
    if (store.heapBytes() + growth > nextSpillAt) {
      spill(store.heapBytes(), growth);
    }
    store.append(slot, bytes, offset, length);
    peakHeap = Math.max(peakHeap, store.heapBytes());
  }

  /** The group of {@code key}, or null when the key was never put. */
  public Group<K, V> get(K key) {
    checkOpen();
    int slot = index.find(key);
    return slot < 0 ? null : new SlotGroup(slot);
  }

  /** Every group, in the order their keys first arrived. */
  public Iterable<Group<K, V>> groups() {
    checkOpen();
    return () ->
        new Iterator<Group<K, V>>() {
          private final int expected = modCount;
          private int slot;

          @Override
          public boolean hasNext() {
            return slot < index.size();
          }

          @Override
          public Group<K, V> next() {
            if (modCount != expected) {
              throw new ConcurrentModificationException("the table was changed while iterated");
            }
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return new SlotGroup(slot++);
          }
        };
  }

  /** Distinct keys held now. */
  public int size() {
    return index.size();
  }

  /** The layout in use; {@link Layout#AUTO} until the table has decided. */
  public Layout layout() {
    return decided ? store.layout() : Layout.AUTO;
  }

  /** The heap budget for value bytes and indexes, in bytes. */
  public long budget() {
    return settings.budget;
  }

  public LeakyStats stats() {
    return new LeakyStats(
        keysSeen,
        values,
        valueBytes,
        store.heapBytes(),
        peakHeap,
        overflow.bytesWritten(),
        overflow.bytesReadBack(),
        overflow.filesWritten(),
        spills,
        failedSpills,
        layout());
  }

  /** The largest value array the table has allocated (a page at most, unless a value is larger). */
  int largestArray() {
    return store.largestArray();
  }

  /**
   * The SpongeFiles task the overflow went through (bytes per tier in its stats), or null when
   * nothing overflowed.
   */
  public SpongeTask overflowTask() {
    return overflow.task();
  }

  /** Forgets every key and value and deletes the overflow files; the layout choice stays. */
  public void clear() throws IOException {
    checkOpen();
    index.clear();
    store.clear();
    modCount++;
    nextSpillAt = settings.budget;
    failuresInARow = 0;
  }

  /** Drops the table's memory and deletes its overflow files. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    index.clear();
    try {
      store.close();
    } finally {
      overflow.close();
    }
  }

  /**
   * Settles the layout from the load factor it sees coming, moving the values held into it. While
   * both layouts hold values, the per-key copy moves keys to the overflow whenever the two together
   * would pass the budget.
   */
  private void decide() throws IOException {
    decided = true;
    double estimate = loadFactor.estimate(values, keysSeen);
    if (estimate < settings.autoLoadFactor) {
      LOG.info(
          "{}: {} values per new key of late keeps the shared layout ({} values, {} keys)",
          name,
          String.format("%.1f", estimate),
          values,
          keysSeen);
      return;
    }
    LOG.info(
        "{}: {} values per new key of late chooses the per-key layout ({} values, {} keys)",
        name,
        String.format("%.1f", estimate),
        values,
        keysSeen);
    moveToPerKey();
  }

  /**
   * An auto table that kept the shared layout switches to per-key once the shared layout's value
   * addresses (on the heap or moved with the values) pass a quarter of the budget and twice what
   * per-key would pin for the same keys: the keys kept coming back after the decision, and the
   * addresses, which per-key does without, would cost heap or overflow traffic on every group read.
   * Done at most once; values already moved are read back once for the switch.
   */
  private void revise() throws IOException {
    mayRevise = false;
    if (store.layout() != Layout.SHARED) {
      return;
    }
    LOG.info(
        "{}: {} bytes of value addresses pass a quarter of sponge.leaky.budget: switching to the"
            + " per-key layout ({} values, {} keys)",
        name,
        store.indexBytes(),
        values,
        keysSeen);
    moveToPerKey();
  }

  /** Moves every value held into a new per-key store, spilling it to stay within the budget. */
  private void moveToPerKey() throws IOException {
    mayRevise = false;
    ValueStore perKey = new PerKeyStore(settings.pageSize, overflow);
    ByteView view = new ByteView();
    for (int slot = 0; slot < index.size(); slot++) {
      ValueStore.Cursor cursor = store.cursor(slot);
      while (cursor.next(view)) {
        long both = store.heapBytes() + perKey.heapBytes() + perKey.growth(slot, view.length);
        if (both > nextSpillAt) {
          moveWhileDeciding(perKey, both);
        }
        perKey.append(slot, view.bytes, view.offset, view.length);
      }
    }
    store.close();
    store = perKey;
  }

  /** Moves per-key values out while the shared store being replaced still holds its values. */
  private void moveWhileDeciding(ValueStore perKey, long both) {
    try {
      perKey.spill(Math.max(both - settings.budget * 3 / 4, settings.budget / 4));
      spills++;
      failuresInARow = 0;
    } catch (IOException | UncheckedIOException e) {
      spillFailed(both, e);
    }
  }

  /**
   * Moves value bytes out so that {@code heap} bytes held plus the {@code growth} the next append
   * allocates come back under three quarters of the budget (a quarter budget at least).
   */
  private void spill(long heap, long growth) {
    long freed;
    try {
      freed = store.spill(Math.max(heap + growth - settings.budget * 3 / 4, settings.budget / 4));
    } catch (IOException | UncheckedIOException e) {
      spillFailed(heap + growth, e);
      return;
    }
    spills++;
    failuresInARow = 0;
    long after = store.heapBytes() + growth;
    if (after > settings.budget) {
      // What is left is index and in-flight pages: wait for real growth before trying again.
      nextSpillAt = after + settings.budget / 4;
      if (freed == 0) {
        LOG.warn(
            "{}: {} heap bytes that cannot move (value indexes, the page being filled) exceed sponge.leaky.budget {}",
            name,
            after,
            settings.budget);
      }
    } else {
      nextSpillAt = settings.budget;
    }
  }

  /**
   * The store kept every byte it tried to move. Try again only after growth of a quarter budget,
   * doubled after each failure in a row: a full or failing tier is not retried on every put, and
   * one that recovers (chunks freed by other tasks) is used again.
   */
  private void spillFailed(long heap, Exception failure) {
    failedSpills++;
    long growth = (settings.budget / 4) << Math.min(failuresInARow, 16);
    failuresInARow++;
    nextSpillAt = heap + growth;
    LOG.warn(
        "{}: could not move value bytes to SpongeFiles; keeping them on the heap ({} bytes held,"
            + " failure {} in a row) and trying again past {} bytes",
        name,
        heap,
        failuresInARow,
        nextSpillAt,
        failure);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(name + " table is closed");
    }
  }

  /** The values of one slot. */
  private final class SlotGroup implements Group<K, V> {
    private final int slot;

    SlotGroup(int slot) {
      this.slot = slot;
    }

    @Override
    public K key() {
      return index.key(slot);
    }

    @Override
    public int size() {
      return store.count(slot);
    }

    @Override
    public boolean overflowed() {
      return store.overflowed(slot);
    }

    @Override
    public Iterable<V> values() {
      return ValueIterator::new;
    }

    private final class ValueIterator implements Iterator<V> {
      private final int expected = modCount;
      private final ValueStore.Cursor cursor = store.cursor(slot);
      private final ByteView view = new ByteView();
      private int remaining = store.count(slot);

      @Override
      public boolean hasNext() {
        return remaining > 0;
      }

      @Override
      public V next() {
        if (modCount != expected) {
          throw new ConcurrentModificationException("the table was changed while iterated");
        }
        if (remaining == 0) {
          throw new NoSuchElementException();
        }
        try {
          if (!cursor.next(view)) {
            throw new IllegalStateException("values of key " + key() + " ended early");
          }
          codec.deserialize(view, reused, key());
        } catch (IOException e) {
          throw new UncheckedIOException(
              "cannot read a value of key " + key() + " back: " + e.getMessage(), e);
        }
        remaining--;
        return reused;
      }
    }
  }

  /** How to build a table: its classes, configuration and where overflow goes. */
  public static final class Builder<K extends Writable, V extends Writable> {
    private final Class<K> keyClass;
    private final Class<V> valueClass;
    private Configuration conf = new Configuration();
    private String taskAttempt;
    private SpongeTask task;
    private ParsedConfig values;

    private Builder(Class<K> keyClass, Class<V> valueClass) {
      this.keyClass = Objects.requireNonNull(keyClass, "keyClass cannot be null");
      this.valueClass = Objects.requireNonNull(valueClass, "valueClass cannot be null");
    }

    /**
     * The configuration with the {@code sponge.leaky.*} and SpongeFiles keys. Unless {@link
     * #parsed} gives them, the table parses them at {@link #build} (only the {@code sponge.leaky.*}
     * keys with {@link #overflowTo}), so a bad value fails there, naming the key and value.
     */
    public Builder<K, V> conf(Configuration conf) {
      this.conf = Objects.requireNonNull(conf, "conf cannot be null");
      return this;
    }

    /**
     * The keys of {@link #conf}, already parsed by {@link LeakyHashTable#parse}: the table reads
     * none of them again.
     */
    public Builder<K, V> parsed(ParsedConfig values) {
      this.values = Objects.requireNonNull(values, "values cannot be null");
      return this;
    }

    /**
     * The task attempt the table works for: overflow SpongeFiles are owned by {@code
     * <taskAttempt>-leaky}, opened on the first spill and closed with the table.
     */
    public Builder<K, V> taskAttempt(String taskAttempt) {
      this.taskAttempt = Objects.requireNonNull(taskAttempt, "taskAttempt cannot be null");
      return this;
    }

    /** Overflow into an already open task's SpongeFiles; the caller closes that task. */
    public Builder<K, V> overflowTo(SpongeTask task) {
      this.task = Objects.requireNonNull(task, "task cannot be null");
      if (taskAttempt == null) {
        taskAttempt = task.identity().taskId();
      }
      return this;
    }

    public LeakyHashTable<K, V> build() {
      if (taskAttempt == null) {
        taskAttempt = "leaky-table-" + TABLES.incrementAndGet();
      }
      return new LeakyHashTable<>(this);
    }
  }
}
