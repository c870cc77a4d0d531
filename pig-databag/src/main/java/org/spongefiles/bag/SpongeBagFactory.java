package org.spongefiles.bag;

import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.LimitedSortedDataBag;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.task.TaskSponges;

/**
 * Pig's bag factory for bags that spill to SpongeFiles. Pig instantiates it in every JVM where the
 * system properties {@code pig.data.bag.factory.name=org.spongefiles.bag.SpongeBagFactory} and
 * {@code pig.data.bag.factory.jar=<URL of this jar>} are set (both are required; see
 * docs/pig-databag.md for the recipe). Each bag belongs to the task attempt of the thread creating
 * it (see {@link TaskSponges}).
 */
public final class SpongeBagFactory extends BagFactory {
  private static TaskSponges shared;

  private final TaskSponges tasks;

  /** The factory Pig creates by reflection: bags belong to this JVM's shared registry. */
  public SpongeBagFactory() {
    this(sharedTasks());
  }

  /**
   * The registry of this JVM, made at first use ({@link TaskSponges#forJvm}): the tasks of the bags
   * Pig's factory makes and of the bags deserialized in this JVM.
   */
  static synchronized TaskSponges sharedTasks() {
    if (shared == null) {
      shared = TaskSponges.forJvm(PigBagOptions::settings);
    }
    return shared;
  }

  /** A factory whose bags belong to {@code tasks} (tests, embedded use). */
  public SpongeBagFactory(TaskSponges tasks) {
    if (tasks == null) {
      throw new IllegalArgumentException("tasks cannot be null");
    }
    this.tasks = tasks;
  }

  @Override
  public DataBag newDefaultBag() {
    return new SpongeDefaultBag(tasks.current());
  }

  /** A bag that takes ownership of {@code listOfTuples} without copying it, as Pig's does. */
  @Override
  public DataBag newDefaultBag(List<Tuple> listOfTuples) {
    return new SpongeDefaultBag(tasks.current(), listOfTuples);
  }

  /** Pig's own limited sorted bag: it holds at most {@code limit} tuples and never spills. */
  @Override
  public DataBag newLimitedSortedBag(Comparator<Tuple> comp, long limit) {
    return new LimitedSortedDataBag(comp, limit);
  }

  @Override
  public DataBag newSortedBag(Comparator<Tuple> comp) {
    return new SpongeSortedBag(tasks.current(), comp);
  }

  @Override
  public DataBag newDistinctBag() {
    return new SpongeDistinctBag(tasks.current());
  }

  /** A bag that takes ownership of {@code tuples} without copying it; null gives an empty bag. */
  @Override
  public DataBag newDistinctBag(Set<Tuple> tuples) {
    return tuples == null ? newDistinctBag() : new SpongeDistinctBag(tasks.current(), tuples);
  }
}
