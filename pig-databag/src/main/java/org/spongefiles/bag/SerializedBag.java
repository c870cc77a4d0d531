package org.spongefiles.bag;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.pig.data.DataType;
import org.apache.pig.data.InterSedes;
import org.apache.pig.data.InterSedesFactory;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.run.Run;
import org.spongefiles.bag.run.RunReader;
import org.spongefiles.bag.run.SpillRuns;

/**
 * What Java serialization writes for a bag (Pig serializes plans holding constant bags): its kind,
 * its comparator and every tuple, spilled or not; reading it back makes a bag of that kind in the
 * reading thread's task, with the tuples in memory (Pig's memory manager spills them again, as it
 * does stock Pig's deserialized bags; see {@link org.spongefiles.bag.filler.SelfSpill}).
 *
 * <p>The bag's memory and runs are taken under its lock at one moment, so a spill from Pig's memory
 * manager meanwhile neither writes tuples twice nor fails the write; the runs are held until they
 * are written, and the bag is not locked while its tuples are. Layout: the kind and comparator, the
 * number of spilled tuples, those tuples in Pig's binary format (run after run, in spill order),
 * the memory tuples as a Java list (as Pig's own bags serialize theirs), then the number of tuples
 * of a default bag's tail and those tuples (see {@link OverflowTail}).
 */
final class SerializedBag implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final InterSedes SEDES = InterSedesFactory.getInterSedesInstance();

  private final BagKind kind;
  private final Comparator<Tuple> order;
  private final transient SpongeBag bag;
  private transient List<Tuple> tuples;

  /** The serialized form of {@code bag}; {@code order} is a sorted bag's comparator, else null. */
  SerializedBag(SpongeBag bag, BagKind kind, Comparator<Tuple> order) {
    this.bag = bag;
    this.kind = kind;
    this.order = order;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    List<Tuple> memory;
    List<Run> spilled;
    List<Run> tail = new ArrayList<>(1);
    synchronized (bag.lock()) {
      bag.startReading();
      memory = new ArrayList<>(bag.memory());
      spilled = bag.runs().retainAll();
      Run held = bag.runs().retainTail();
      if (held != null) {
        tail.add(held);
      }
    }
    try {
      out.defaultWriteObject();
      writeRuns(out, spilled);
      out.writeObject(memory);
      writeRuns(out, tail);
    } finally {
      SpillRuns.releaseAll(spilled);
      SpillRuns.releaseAll(tail);
    }
  }

  /** The number of tuples of {@code runs}, then those tuples, run after run. */
  private void writeRuns(ObjectOutputStream out, List<Run> runs) throws IOException {
    long total = 0;
    for (Run run : runs) {
      total += run.tuples();
    }
    out.writeLong(total);
    for (Run run : runs) {
      RunReader reader = run.open(bag.task(), 1, bag.averageTupleBytes());
      try {
        for (Tuple tuple = reader.next(); tuple != null; tuple = reader.next()) {
          SEDES.writeDatum(out, tuple, DataType.TUPLE);
        }
      } finally {
        reader.close();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    List<Tuple> all = new ArrayList<>();
    readTuples(in, all);
    all.addAll((List<Tuple>) in.readObject());
    readTuples(in, all);
    this.tuples = all;
  }

  /** Reads a count of tuples and the tuples, as {@link #writeRuns} wrote them, into {@code all}. */
  private static void readTuples(ObjectInputStream in, List<Tuple> all) throws IOException {
    long count = in.readLong();
    for (long i = 0; i < count; i++) {
      all.add((Tuple) SEDES.readDatum(in));
    }
  }

  private Object readResolve() {
    return kind.restore(SpongeBagFactory.sharedTasks().current(), order, tuples);
  }
}
