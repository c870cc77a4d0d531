package org.spongefiles.bag;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DefaultAbstractBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.impl.util.SpillableMemoryManager;
import org.spongefiles.bag.filler.PigFillers;
import org.spongefiles.bag.filler.SelfSpill;
import org.spongefiles.bag.run.Run;
import org.spongefiles.bag.run.SpillRuns;
import org.spongefiles.bag.task.BagTask;

/**
 * What Pig's default, sorted and distinct bags share, with spills going to SpongeFiles: the {@code
 * DataBag} a Pig operator or UDF sees. Tuples are held in memory, counted and sampled for Pig's
 * memory estimate ({@link SizeEstimate}), until Pig's memory manager calls {@link #spill()}, or,
 * for a bag Pig's own operators fill, until the bag holds more than its part of {@code
 * sponge.pig.bag.memory} of the heap; when and how they leave the heap is the bag's {@link
 * BagSpill} (the limit, {@link SelfSpillLimit}; the GROUP/COGROUP decision, {@link GroupRole}; a
 * default bag's tail, {@link OverflowTail}). A spill writes memory into one new SpongeFile (a run)
 * of the bag's task, as Pig writes one spill file. Iterators read the runs back from SpongeFiles,
 * then memory, then the tail, and follow the bag when it spills under them.
 *
 * <p>All state is guarded by one lock, the bag's {@link SpillRuns} (so that a bag costs no lock
 * object of its own), since {@code spill()} comes from the memory manager's thread while the task's
 * thread adds and reads. Unlike Pig's bags, {@code addAll} takes the lock per tuple, so a bag being
 * filled from another can be spilled before it is full (Pig's reduce side fills a group's bag that
 * way). Runs are deleted by {@link #clear()}, when the bag becomes unreachable (a cleaner action
 * holds the runs, not the bag), and at the latest when the task ends; a run still being read is
 * deleted when its last reader is done (see {@link Run#retain()}).
 *
 * <p>Java serialization writes a {@link SerializedBag} in the bag's place.
 */
public abstract class SpongeBag extends DefaultAbstractBag {
  private static final long serialVersionUID = 1L;

  /** Pig's bags register with its memory manager once they hold this much (100 KiB). */
  private static final long REGISTER_BYTES = 100 << 10;

  private final transient BagTask task;

  /** The bag's runs, and its lock. */
  private final transient SpillRuns runs = new SpillRuns();

  private final transient SizeEstimate size = new SizeEstimate();

  /** Made when the bag may be past its limit, or is spilled: most bags never are. */
  private transient BagSpill spill;

  private transient long modifications;
  private transient boolean registered;

  SpongeBag(BagTask task, Collection<Tuple> memory) {
    this.task = Objects.requireNonNull(task, "task cannot be null");
    this.mContents = Objects.requireNonNull(memory, "memory cannot be null");
  }

  /** Counts and samples tuples a constructor was given; registers the bag if it is large. */
  final void adopt(Collection<Tuple> given) {
    BagSpill full;
    long estimate;
    synchronized (runs) {
      for (Tuple tuple : given) {
        mSize++;
        size.sample(tuple);
      }
      estimate = memoryEstimate();
      full = full(estimate);
    }
    settle(full, estimate);
  }

  /** Adds {@code tuple} to the memory collection; false if a distinct bag already held it. */
  abstract boolean addToMemory(Tuple tuple);

  /** The memory tuples in the order a spill writes them; may reorder memory. Under the lock. */
  abstract Iterable<Tuple> spillOrder();

  /** Memory was just written into {@code run}, which now ends the list; under the lock. */
  void spilled(Run run) {}

  /**
   * Whether a self-spill keeps memory as it is and opens one run that every later tuple is written
   * to (the bag's tail, read after memory), rather than writing all of memory into a new run; under
   * the lock. Pig's internal bag for a GROUP does the same: past its limit it keeps what it holds
   * and writes the rest, so a group just over the limit writes little (see {@link OverflowTail}).
   */
  boolean writesPastLimit() {
    return false;
  }

  /** Resets subclass state after {@link #clear()}; under the lock. */
  abstract void cleared();

  /**
   * How many bags share {@code sponge.pig.bag.memory} of the heap, as the operator that fills a bag
   * of this kind tells Pig's internal bags ({@code SelfSpillBag.MemoryLimits}: the limit of each is
   * {@code heap x fraction / sharers}); what {@code sponge.pig.bag.self.spill=always} uses.
   */
  abstract int sharers();

  /**
   * How many bags were made together with this one, one per input of the operator filling them (see
   * {@link Siblings}); a GROUP's, COGROUP's or JOIN's bag divides its share by it, as stock Pig's
   * {@code InternalCachedBag(numInputs)} does. 1 for bags that are never a group's.
   */
  int inputs() {
    return 1;
  }

  /** Which of Pig's three bags this is. */
  abstract BagKind kind();

  /** The comparator a sorted bag is serialized with; null for the others. */
  Comparator<Tuple> serializedOrder() {
    return null;
  }

  @Override
  public final boolean isSorted() {
    return kind() == BagKind.SORTED;
  }

  @Override
  public final boolean isDistinct() {
    return kind() == BagKind.DISTINCT;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException when the bag's tail run failed, or memory could not be written
   *     ahead of it for a tuple added after the bag was read
   */
  @Override
  public void add(Tuple tuple) {
    BagSpill full;
    long estimate;
    synchronized (runs) {
      if (spill != null && spill.appendedToTail(tuple)) {
        mSize++;
        size.sample(tuple);
        modifications++;
        return;
      }
      if (addToMemory(tuple)) {
        mSize++;
        size.sample(tuple);
      }
      modifications++;
      estimate = memoryEstimate();
      full = full(estimate);
    }
    settle(full, estimate);
  }

  /**
   * Registers the bag with Pig's memory manager once it holds an estimated {@code estimate} bytes
   * past {@link #REGISTER_BYTES}, as {@code markSpillableIfNecessary()} does, without asking for
   * the estimate again under the lock, unless one of Pig's packagers fills it (a GROUP's, COGROUP's
   * or JOIN's bag, {@link PigFillers#isGroup}) and it limits itself (a share of the heap: with
   * {@code sponge.pig.bag.memory=0} Pig's memory manager is all that spills it): stock Pig never
   * registers the internal bags those fill, and a registered bag costs the collector. The manager
   * holds a weak reference to it, and once that reference is in the old generation a young
   * collection keeps the bag and every tuple it holds alive, so that a group's bag Pig is done with
   * is promoted and dies in the old generation (docs/results/pig-edge-skewed-join.txt). Called by
   * the thread filling the bag: who fills it is looked up once, on its stack.
   */
  private void registerIfLarge(long estimate) {
    if (!registered && estimate >= REGISTER_BYTES) {
      registered = true;
      if (task.memory().share() == 0 || !filledByPackager()) {
        SpillableMemoryManager.getInstance().registerSpillable(this);
      }
    }
  }

  /** Whether the calling thread fills the bag for one of Pig's packagers. */
  private static boolean filledByPackager() {
    return SelfSpill.filler()
        .map(frame -> PigFillers.isGroup(PigFillers.sharersOf(frame.getClassName())))
        .orElse(false);
  }

  /**
   * The bag's spill if memory, an estimated {@code estimate} bytes, is past its self-spill limit,
   * else null; under the lock.
   */
  private BagSpill full(long estimate) {
    if (spill == null && SelfSpillLimit.withinSmallest(task.memory(), estimate, inputs())) {
      return null;
    }
    BagSpill spilling = spilling();
    return spilling.isFull(estimate) ? spilling : null;
  }

  /** Outside the lock, after tuples came in: spills the bag if it is full, else registers it. */
  private void settle(BagSpill full, long estimate) {
    if (full != null) {
      full.spill(true);
    } else {
      registerIfLarge(estimate);
    }
  }

  /** The bag's spill, made now if it was not; under the lock. */
  private BagSpill spilling() {
    if (spill == null) {
      spill = new BagSpill(this, task, runs);
    }
    return spill;
  }

  /**
   * Estimated bytes past which the bag spills itself: its part of what the bags' share of the heap
   * leaves for tuples once the bags' readers and writers are counted; 0 when it waits for the
   * memory manager. Before the bag has grown past a third of the share its filler is not known yet,
   * and the limit of its kind ({@link #sharers()}) is answered.
   */
  final long selfSpillLimit() {
    synchronized (runs) {
      return spilling().limitBytes();
    }
  }

  @Override
  public void addAll(DataBag bag) {
    addAll((Iterable<Tuple>) bag);
  }

  @Override
  public void addAll(Collection<Tuple> tuples) {
    addAll((Iterable<Tuple>) tuples);
  }

  /** Adds each tuple under the lock on its own, so the bag may spill while it is being filled. */
  @Override
  public void addAll(Iterable<Tuple> tuples) {
    for (Tuple tuple : tuples) {
      add(tuple);
    }
  }

  /**
   * Heap held by the tuples in memory, from their sampled average size (Pig's estimate), plus the
   * runs' bookkeeping; the memory manager spills the largest bags first.
   */
  @Override
  public long getMemorySize() {
    synchronized (runs) {
      return memoryEstimate();
    }
  }

  /** Pig's estimate of the heap one of the bag's tuples takes, from the sampled ones. */
  final long averageTupleBytes() {
    synchronized (runs) {
      return size.averageTupleBytes();
    }
  }

  /** Pig's estimate of the heap the bag holds; under the lock. */
  final long memoryEstimate() {
    return size.bytes(mContents.size(), runs.size());
  }

  /**
   * Writes every tuple held in memory into one new SpongeFile and frees them. Called by Pig's
   * memory manager under memory pressure. A GROUP's bag is left alone and 0 returned (see {@link
   * GroupRole}), as stock Pig's internal bags are never registered with the memory manager. When
   * the SpongeFile cannot be written the tuples stay in memory, a warning is logged and 0 is
   * returned, as Pig's bags do when a spill file fails.
   *
   * @return the number of tuples spilled
   */
  @Override
  public long spill() {
    BagSpill spilling;
    synchronized (runs) {
      spilling = spilling();
    }
    return spilling.spill(false);
  }

  /** Memory was just written into a run: it is emptied. Under the lock. */
  final void memoryWritten() {
    mContents.clear();
    modifications++;
  }

  /** Counts in Pig's {@code counter}, as Pig's bags count their spills. */
  final void incPigSpillCount(Enum<?> counter) {
    incSpillCount(counter);
  }

  /** Counts {@code records} in Pig's {@code counter}, as Pig's bags count their spills. */
  final void incPigSpillCount(Enum<?> counter, long records) {
    incSpillCount(counter, records);
  }

  /** Warns through Pig's logger, as Pig's bags do when a spill fails. */
  final void warnPig(String message, Enum<?> warning, Throwable cause) {
    warn(message, warning, cause);
  }

  /** The bag's GROUP/COGROUP decision; null until it is found to be a group's. */
  final GroupRole group() {
    return spill == null ? null : spill.group();
  }

  /**
   * The bag is read (iterated or serialized): finishes the run it was writing the tuples past its
   * limit to, if any, as its tail (see {@link OverflowTail#finish()}). Under the lock.
   *
   * @throws IllegalStateException when that run could not be written
   */
  final void startReading() {
    if (spill != null) {
      spill.startReading();
    }
  }

  /**
   * Empties the bag and deletes its runs (each once the iterators still reading it are done).
   * Iterators open on it then read undefined results.
   */
  @Override
  public void clear() {
    List<Run> dropped;
    synchronized (runs) {
      mContents.clear();
      mSize = 0;
      size.reset();
      modifications++;
      if (spill != null) {
        spill.reset();
      }
      dropped = runs.takeAll();
      cleared();
    }
    SpillRuns.releaseAll(dropped);
  }

  final Object lock() {
    return runs;
  }

  final BagTask task() {
    return task;
  }

  final SpillRuns runs() {
    return runs;
  }

  /** Changes since creation: adds, spills and clears. Under the lock. */
  final long modifications() {
    return modifications;
  }

  /** Memory, whatever its collection; under the lock. */
  final Collection<Tuple> memory() {
    return mContents;
  }

  /** Memory as a list: the default bag's always, the others' once reading began. */
  @SuppressWarnings("unchecked")
  final List<Tuple> memoryList() {
    return (List<Tuple>) mContents;
  }

  /** Tuples held in memory now. */
  public final int inMemory() {
    synchronized (runs) {
      return mContents.size();
    }
  }

  /** Spilled runs (one SpongeFile each) the bag holds now, its tail too. */
  public final int runCount() {
    return runs.size() + (runs.tail() != null ? 1 : 0);
  }

  /** Bytes of the bag's runs. */
  public final long spilledBytes() {
    return runs.bytes();
  }

  /** The task whose SpongeFiles hold this bag's runs. */
  public final BagTask owner() {
    return task;
  }

  /** Java serialization writes the bag's {@link SerializedBag} instead. */
  final Object writeReplace() {
    return new SerializedBag(this, kind(), serializedOrder());
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("A SpongeBag is serialized as a SerializedBag");
  }
}
