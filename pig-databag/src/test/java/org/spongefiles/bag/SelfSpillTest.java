package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;
import static org.spongefiles.bag.BagAssert.sorted;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.Packager;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DefaultDataBag;
import org.apache.pig.data.NonSpillableDataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.impl.util.SpillableMemoryManager;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.filler.PigFillers;
import org.spongefiles.bag.filler.SelfSpill;
import org.spongefiles.bag.task.BagCounter;
import org.spongefiles.testkit.pig.FullHeap;

/**
 * Bags spill themselves past their part of sponge.pig.bag.memory of the heap where Pig's internal
 * bags do: when Pig's operators fill them ({@link SelfSpill#PIG}), or always with {@code
 * sponge.pig.bag.self.spill=always}. Other bags wait for Pig's memory manager, as stock Pig's do.
 */
class SelfSpillTest {

  private static Configuration limit(String fraction) {
    Configuration conf = new Configuration(false);
    conf.set(PigBagOptions.BAG_MEMORY.key(), fraction);
    return conf;
  }

  private static Configuration always(String fraction) {
    Configuration conf = limit(fraction);
    conf.set(PigBagOptions.SELF_SPILL.key(), "always");
    return conf;
  }

  /**
   * With always, as Pig's internal bags share pig.cachedbag.memusage: a default bag (a group's,
   * POPackage with one input) all of it, a sorted or distinct bag a third (POSort and PODistinct
   * pass 3), whoever fills them. The default bag keeps its newest tuples in memory and appends the
   * oldest to one run; the others write all of memory into a new run at each spill.
   */
  @Test
  void withAlwaysEveryBagPastItsShareOfTheHeapSpillsItself() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, always("0.001"))) {
      long share = fixture.task().memory().share();
      assertThat(share).isEqualTo((long) (0.001 * Runtime.getRuntime().maxMemory()));
      List<Tuple> input = new RandomTuples(81, 1000).list(30_000);
      SpongeBag plain = (SpongeBag) fixture.factory.newDefaultBag();
      SpongeBag ordered = (SpongeBag) fixture.factory.newSortedBag(null);
      SpongeBag distinct = (SpongeBag) fixture.factory.newDistinctBag();
      assertThat(plain.selfSpillLimit()).isEqualTo(share);
      assertThat(ordered.selfSpillLimit()).isEqualTo(share / 3);
      assertThat(distinct.selfSpillLimit()).isEqualTo(share / 3);
      long plainPeak = 0;
      for (Tuple tuple : input) {
        plain.add(tuple);
        ordered.add(tuple);
        distinct.add(tuple);
        plainPeak = Math.max(plainPeak, plain.getMemorySize());
        assertThat(ordered.getMemorySize()).isLessThanOrEqualTo(share / 3 + 16_384);
        assertThat(distinct.getMemorySize()).isLessThanOrEqualTo(share / 3 + 16_384);
      }

      assertThat(plainPeak).isBetween(share / 2, share + 16_384);
      assertThat(plain.getMemorySize()).as("newest kept").isGreaterThan(share / 2);
      assertThat(plain.spill()).as("Pig's memory manager leaves it to its limit").isZero();
      assertThat(ordered.runCount()).isGreaterThan(3);
      assertThat(fixture.task().count(BagCounter.BAG_SELF_SPILLS))
          .isEqualTo(fixture.task().count(BagCounter.BAG_SPILLS))
          .isEqualTo(1 + ordered.runCount() + distinct.runCount());
      int plainInMemory = plain.inMemory();
      assertSameSequence(contents(plain), input);
      assertThat(plain.runCount()).as("the oldest, listed once read").isEqualTo(1);
      assertThat(plain.inMemory()).isEqualTo(plainInMemory);
      assertSameSequence(contents(ordered), sorted(input));
      assertThat(distinct.size()).isEqualTo(distinctCount(input));
    }
  }

  /**
   * A UDF's bags (here: filled by test code) past every limit do not spill themselves, as stock
   * Pig's DefaultDataBag, SortedDataBag and DistinctDataBag do not; Pig's memory manager spills
   * them.
   */
  @Test
  void bagsFilledOutsidePigsOperatorsWaitForPigsMemoryManager() throws Exception {
    Configuration pig = new Configuration(false);
    pig.set("pig.spill.size.threshold", "100000");
    pig.set("pig.spill.gc.activation.size", Long.toString(Long.MAX_VALUE));
    SpillableMemoryManager.getInstance().configure(pig);
    try (BagFixture fixture = new BagFixture(64L << 20, limit("0.001"))) {
      long share = fixture.task().memory().share();
      List<Tuple> input = new RandomTuples(84, 1000).list(30_000);
      SpongeBag plain = (SpongeBag) fixture.factory.newDefaultBag();
      SpongeBag ordered = (SpongeBag) fixture.factory.newSortedBag(null);
      SpongeBag distinct = (SpongeBag) fixture.factory.newDistinctBag();
      for (Tuple tuple : input) {
        plain.add(tuple);
        ordered.add(tuple);
        distinct.add(tuple);
      }

      assertThat(ordered.getMemorySize()).as("past the largest limit").isGreaterThan(share);
      for (SpongeBag bag : List.of(plain, ordered, distinct)) {
        assertThat(bag.selfSpillLimit()).as("no limit of its own").isZero();
        assertThat(bag.runCount()).isZero();
      }
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isZero();

      FullHeap.tellPig();

      for (SpongeBag bag : List.of(plain, ordered, distinct)) {
        assertThat(bag.runCount()).as("spilled by Pig's memory manager").isEqualTo(1);
        assertThat(bag.inMemory()).isZero();
      }
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isEqualTo(3);
      assertThat(fixture.task().count(BagCounter.BAG_SELF_SPILLS)).isZero();
      assertSameSequence(contents(plain), input);
      assertSameSequence(contents(ordered), sorted(input));
      assertThat(distinct.size()).isEqualTo(distinctCount(input));
    }
  }

  /**
   * A bag Pig's own Packager fills (attachInput materializes a group's bag from a read-once one
   * with addAll) spills itself past all of the share, as the InternalCachedBag(1) stock Pig gives
   * it.
   */
  @Test
  void aBagPigsPackagerFillsSpillsItselfPastTheGroupShare() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, limit("0.001"))) {
      long share = fixture.task().memory().share();
      List<Tuple> input = new RandomTuples(85, 1000).list(30_000);
      SpongeBag group = packInto(fixture, List.of(input)).get(0);
      assertThat(group.getMemorySize()).isBetween(share / 2, share + 16_384);
      assertThat(fixture.task().count(BagCounter.BAG_SELF_SPILLS))
          .isEqualTo(fixture.task().count(BagCounter.BAG_SPILLS))
          .isEqualTo(1);
      assertSameSequence(contents(group), input);
      assertThat(group.runCount()).isEqualTo(1);
      assertThat(group.selfSpillLimit()).as("once its run is written").isEqualTo(share);
      assertThat(group.spill()).as("Pig's memory manager, once the group was read").isZero();
    }
  }

  /**
   * The bags Pig's Packager fills for a COGROUP of two inputs, each past a third of the share, are
   * a COGROUP's (the second filled while the first is unread): Pig's memory manager may spill them,
   * since each holds up to all of the share where stock Pig's InternalCachedBag(2) holds half.
   */
  @Test
  void theBagsPigsPackagerFillsForACogroupAreLeftToPigsMemoryManager() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, limit("0.001"))) {
      List<Tuple> first = new RandomTuples(90, 1000).list(30_000);
      List<Tuple> second = new RandomTuples(91, 1000).list(20_000);
      List<SpongeBag> made = packInto(fixture, List.of(first, second));

      assertThat(fixture.task().count(BagCounter.BAG_SELF_SPILLS)).isEqualTo(2);
      for (SpongeBag bag : made) {
        int inMemory = bag.inMemory();
        assertThat(bag.spill()).as("Pig's memory manager").isEqualTo(inMemory).isPositive();
      }
      assertSameSequence(contents(made.get(0)), first);
      assertSameSequence(contents(made.get(1)), second);
    }
  }

  /**
   * The classes of Pig 0.18.0 that make internal bags in stock Pig, by the name the rule looks for
   * (each must exist in Pig's jar), and some that do not.
   */
  @Test
  void theRuleKnowsPigsOperatorsByName() throws Exception {
    String operators =
        "org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.";
    for (String group : List.of("POPackage", "Packager", "POCollectedGroup")) {
      Class.forName(operators + group, false, getClass().getClassLoader());
      assertThat(PigFillers.sharersOf(operators + group)).as(group).isEqualTo(1);
    }
    Class.forName(operators + "JoinPackager", false, getClass().getClassLoader());
    assertThat(PigFillers.sharersOf(operators + "JoinPackager")).isEqualTo(2);
    for (String nested :
        List.of(
            operators + "POSort", operators + "PODistinct", "org.apache.pig.builtin.Distinct")) {
      Class.forName(nested, false, getClass().getClassLoader());
      assertThat(PigFillers.sharersOf(nested)).as(nested).isEqualTo(3);
    }
    for (String other :
        List.of(
            operators + "POCross",
            operators + "POPartitionRearrange",
            "org.apache.pig.data.BinInterSedes",
            "org.apache.pig.builtin.TOP",
            getClass().getName())) {
      assertThat(PigFillers.sharersOf(other)).as(other).isZero();
    }
  }

  /**
   * Pig's own Packager fills a group's bag in the method PigFillers names, and that frame is the
   * one the rule finds first on the stack: the rule's answer comes from Pig's real operator
   * running, not from a name alone.
   */
  @Test
  void pigsPackagerFillsItsBagWhereTheRuleLooks() throws Exception {
    List<String> seen = new ArrayList<>();
    Packager packager =
        new Packager() {
          private static final long serialVersionUID = 1L;

          @Override
          public DataBag getBag() {
            return new DefaultDataBag() {
              private static final long serialVersionUID = 1L;

              @Override
              public void addAll(DataBag bag) {
                SelfSpill.filler()
                    .ifPresent(
                        frame -> seen.add(frame.getClassName() + "." + frame.getMethodName()));
                super.addAll(bag);
              }
            };
          }
        };
    List<Tuple> input = new RandomTuples(92, 100).list(10);

    packager.attachInput(
        "key", new DataBag[] {new NonSpillableDataBag(input)}, new boolean[] {true});

    String filler = Packager.class.getName();
    assertThat(seen)
        .containsExactly(PigFillers.named(filler).orElseThrow().toString())
        .containsExactly(filler + ".attachInput");
    assertThat(PigFillers.sharersOf(filler)).isEqualTo(PigFillers.GROUP);
  }

  @Test
  void zeroLeavesSpillingToTheMemoryManager() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, limit("0"))) {
      DataBag bag = fixture.factory.newDefaultBag();
      new RandomTuples(82, 1000).list(30_000).forEach(bag::add);
      assertThat(((SpongeBag) bag).runCount()).isZero();
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isZero();
    }
  }

  /**
   * Past its limit, a default bag not read yet keeps what it holds and writes every later tuple
   * straight into one run, its tail, as Pig's InternalCachedBag keeps what it holds and writes the
   * rest: it writes just what came past the limit, and no tuple past the limit stays in memory.
   * Pig's memory manager leaves it alone, as stock Pig's internal bags are not registered with it;
   * once a second bag fills while it is unread (a COGROUP's) it spills memory into a run read
   * before the tail. Every tuple comes back in the order added, and every tuple written is counted.
   */
  @Test
  void aDefaultBagPastItsLimitWritesWhatComesPastIt() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, always("0.001"))) {
      long share = fixture.task().memory().share();
      List<Tuple> input = new RandomTuples(86, 1000).list(30_000);
      SpongeBag bag = (SpongeBag) fixture.factory.newDefaultBag();
      int firstFull = -1;
      for (int i = 0; i < input.size(); i++) {
        bag.add(input.get(i));
        if (firstFull < 0 && fixture.task().count(BagCounter.BAG_SPILLS) > 0) {
          firstFull = i;
        }
      }

      assertThat(firstFull).isPositive();
      int kept = bag.inMemory();
      assertThat(kept).as("what it held when it passed its limit").isEqualTo(firstFull + 1);
      assertThat(bag.getMemorySize()).isBetween(share * 3 / 4, share + 16_384);
      assertThat(bag.runCount()).as("the tail is listed at the first read").isZero();
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isEqualTo(1);

      assertThat(bag.spill()).as("Pig's memory manager").isZero();
      assertThat(bag.inMemory()).isEqualTo(kept);

      // A second bag past a third of the share while the first is unread, as a COGROUP's: the
      // memory manager may spill them, as stock Pig's give each of n bags 1/n of the share, ours
      // all of it.
      SpongeBag other = (SpongeBag) fixture.factory.newDefaultBag();
      input.forEach(other::add);
      assertThat(bag.spill())
          .as("Pig's memory manager, with a second bag filled before the first was read")
          .isEqualTo(kept);
      assertThat(bag.runCount()).as("memory, the tail still open").isEqualTo(1);
      List<Tuple> more = new RandomTuples(87, 1000).list(firstFull / 2);
      more.forEach(bag::add);
      assertThat(bag.inMemory()).as("later tuples go to the tail").isZero();
      List<Tuple> all = new ArrayList<>(input);
      all.addAll(more);
      assertSameSequence(contents(bag), all);
      assertThat(bag.runCount()).as("memory's run, then the tail").isEqualTo(2);
      assertSameSequence(contents(other), input);
      assertThat(spilledTuples(fixture))
          .as("the first bag's tuples once each, the second's past its limit")
          .isEqualTo(all.size() + input.size() - other.inMemory());
    }
  }

  /**
   * Default bags made together before any is filled are one packager's bags of a key, one per input
   * (Pig's POPackage makes them so): each spills itself past its part of the share, as stock Pig's
   * InternalCachedBag(numInputs) does. A bag made after they were filled starts a set of its own
   * and has all of the share.
   */
  @Test
  void bagsMadeTogetherDivideTheShareAsAPackagersInputs() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, always("0.001"))) {
      long share = fixture.task().memory().share();
      List<Tuple> input = new RandomTuples(90, 1000).list(20_000);
      SpongeBag first = (SpongeBag) fixture.factory.newDefaultBag();
      SpongeBag second = (SpongeBag) fixture.factory.newDefaultBag();
      input.forEach(first::add);
      input.subList(0, 100).forEach(second::add);
      SpongeBag alone = (SpongeBag) fixture.factory.newDefaultBag();
      input.forEach(alone::add);

      assertThat(first.getMemorySize()).isBetween(share / 2 - (96 << 10), share / 2 + (64 << 10));
      assertThat(alone.getMemorySize()).isGreaterThan(share * 3 / 4);
      assertThat(fixture.task().count(BagCounter.BAG_SELF_SPILLS)).isEqualTo(2);
      assertSameSequence(contents(first), input);
      assertSameSequence(contents(second), input.subList(0, 100));
      assertSameSequence(contents(alone), input);
    }
  }

  /**
   * A tuple added to a default bag after it was read follows its tail: memory is written into a run
   * ahead of the tail first. A reader that was in memory, and one that was in the tail, read on in
   * the order added.
   */
  @Test
  void aTupleAddedAfterTheTailFollowsIt() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, always("0.001"))) {
      List<Tuple> input = new RandomTuples(88, 1000).list(20_000);
      SpongeBag bag = (SpongeBag) fixture.factory.newDefaultBag();
      input.forEach(bag::add);
      int kept = bag.inMemory();
      assertThat(kept).isBetween(1, input.size() - 1);

      Iterator<Tuple> inMemory = bag.iterator();
      for (int i = 0; i < kept / 2; i++) {
        assertThat((Object) inMemory.next()).isEqualTo(input.get(i));
      }
      Iterator<Tuple> inTail = bag.iterator();
      for (int i = 0; i < kept + 10; i++) {
        assertThat((Object) inTail.next()).isEqualTo(input.get(i));
      }
      List<Tuple> more = new RandomTuples(89, 1000).list(500);
      more.forEach(bag::add);
      assertThat(bag.runCount()).as("memory's run, the tail, and no more").isEqualTo(2);

      List<Tuple> all = new ArrayList<>(input);
      all.addAll(more);
      List<Tuple> rest = new ArrayList<>();
      inMemory.forEachRemaining(rest::add);
      assertSameSequence(rest, all.subList(kept / 2, all.size()));
      rest.clear();
      inTail.forEachRemaining(rest::add);
      assertSameSequence(rest, all.subList(kept + 10, all.size()));
      assertSameSequence(contents(bag), all);
    }
  }

  /**
   * Pig's memory manager leaves a GROUP's bag alone below its limit too, and while it is read (a
   * UDF copying it into a bag of its own, which the memory manager may spill), as stock Pig's
   * internal bag is never registered with it; the next group's bag, filled once the first was read,
   * as well. Bags filled while another is unread are a COGROUP's: it may spill those.
   */
  @Test
  void pigsMemoryManagerLeavesAGroupsBagAloneButNotACogroupsBags() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, always("0.001"))) {
      long share = fixture.task().memory().share();
      List<Tuple> input = new RandomTuples(89, 1000).list(30_000);
      SpongeBag first = (SpongeBag) fixture.factory.newDefaultBag();
      int half = 0;
      while (first.getMemorySize() <= share / 2) {
        first.add(input.get(half++));
      }
      List<Tuple> group = input.subList(0, half);
      assertThat(first.spill()).as("a GROUP's bag below its limit").isZero();
      Iterator<Tuple> reading = first.iterator();
      assertThat((Object) reading.next()).isEqualTo(group.get(0));
      assertThat(first.spill()).as("a GROUP's bag while it is read").isZero();

      SpongeBag second = (SpongeBag) fixture.factory.newDefaultBag();
      group.forEach(second::add);
      assertThat(second.spill()).as("the next group's, filled after the first was read").isZero();
      SpongeBag third = (SpongeBag) fixture.factory.newDefaultBag();
      group.forEach(third::add);
      assertThat(second.spill()).as("a COGROUP's bag").isEqualTo(half);
      assertThat(third.spill()).as("a COGROUP's bag").isEqualTo(half);
      assertThat(first.spill()).isZero();

      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isEqualTo(2);
      assertThat(fixture.task().count(BagCounter.BAG_SELF_SPILLS)).isZero();
      for (SpongeBag bag : List.of(first, second, third)) {
        assertSameSequence(contents(bag), group);
      }
      third.clear();
      group.forEach(third::add);
      assertThat(third.spill()).as("cleared and filled after the second was read").isZero();
    }
  }

  /**
   * When the run of a default bag's oldest tuples cannot take more, the tuples it holds are lost
   * with it: the bag's next add and read fail naming the task, as a task fails when one of Pig's
   * own bags cannot write its spill file, rather than return a bag without them.
   */
  @Test
  void aDefaultBagWhoseRunCannotGrowFailsNamingTheTask() throws Exception {
    Configuration conf = always("0.0001");
    conf.set("sponge.tiers", "pool");
    try (BagFixture fixture = new BagFixture(256L << 10, conf)) {
      SpongeBag bag = (SpongeBag) fixture.factory.newDefaultBag();
      List<Tuple> input = new RandomTuples(88, 1000).list(30_000);

      assertThatThrownBy(() -> input.forEach(bag::add))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("pig-process")
          .hasMessageContaining("lost");
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isEqualTo(1);
      assertThatThrownBy(() -> bag.add(input.get(0))).hasMessageContaining("pig-process");
      assertThatThrownBy(bag::iterator).hasMessageContaining("pig-process");
      assertThat(fixture.task().liveFiles()).as("the run is deleted").isZero();
      bag.clear();
      bag.add(input.get(0));
      assertSameSequence(contents(bag), input.subList(0, 1));
    }
  }

  /**
   * A bag whose spills cannot be written (the only tier is too small) keeps its tuples in memory
   * and tries again only once it holds twice as much; a sorted bag writes all of memory at each
   * spill, so nothing is lost.
   */
  @Test
  void aBagThatCannotSpillRetriesOnlyAfterDoubling() throws Exception {
    Configuration conf = always("0.001");
    conf.set("sponge.tiers", "pool");
    try (BagFixture fixture = new BagFixture(256L << 10, conf)) {
      List<Tuple> input = new RandomTuples(83, 1000).list(30_000);
      SpongeBag bag = (SpongeBag) fixture.factory.newSortedBag(null);
      input.forEach(bag::add);

      long failures = fixture.task().count(BagCounter.BAG_SPILL_FAILURES);
      assertThat(failures).isBetween(1L, 12L);
      assertSameSequence(contents(bag), sorted(input));
    }
  }

  /**
   * Pig's own Packager materializing one key's read-once bags, one per input, as its attachInput
   * does for a GROUP (one input) or a COGROUP: the bags it filled, each from the factory.
   */
  private static List<SpongeBag> packInto(BagFixture fixture, List<List<Tuple>> inputs)
      throws Exception {
    List<SpongeBag> made = new ArrayList<>();
    Packager packager =
        new Packager() {
          private static final long serialVersionUID = 1L;

          @Override
          public DataBag getBag() {
            SpongeBag bag = (SpongeBag) fixture.factory.newDefaultBag();
            made.add(bag);
            return bag;
          }
        };
    DataBag[] bags = new DataBag[inputs.size()];
    boolean[] readOnce = new boolean[inputs.size()];
    for (int i = 0; i < bags.length; i++) {
      bags[i] = new NonSpillableDataBag(inputs.get(i));
      readOnce[i] = true;
    }

    packager.attachInput("key", bags, readOnce);

    assertThat(made).hasSize(bags.length);
    for (int i = 0; i < bags.length; i++) {
      assertThat((Object) bags[i]).isSameAs(made.get(i));
    }
    return made;
  }

  private static long spilledTuples(BagFixture fixture) {
    return fixture.task().count(BagCounter.BAG_SPILLED_TUPLES);
  }

  private static int distinctCount(List<Tuple> tuples) {
    TreeSet<Tuple> unique = new TreeSet<>(TupleOrder.NATURAL);
    unique.addAll(tuples);
    return unique.size();
  }
}
