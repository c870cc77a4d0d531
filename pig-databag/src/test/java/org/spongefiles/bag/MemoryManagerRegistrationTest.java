package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.JoinPackager;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POForEach;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.Packager;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.NonSpillableDataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.impl.plan.OperatorKey;
import org.apache.pig.impl.util.SpillableMemoryManager;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.task.BagCounter;
import org.spongefiles.testkit.pig.FullHeap;

/**
 * Which bags are registered with Pig's memory manager ({@code SpongeBag.registerIfLarge}), seen
 * through Pig's real {@link SpillableMemoryManager}: told that the heap is full ({@link
 * FullHeap#tellPig()}, the notification the JVM sends), it calls {@code spill()} on every bag
 * registered with it past {@code pig.spill.size.threshold}, and on no other. The manager has no
 * public view of what it holds, so what it spills is what the test observes. Each bag here holds
 * about a megabyte: past the 100 KiB at which a bag registers, and far below the third of its share
 * of the heap (sponge.pig.bag.memory 0.2 of the test JVM's) at which it would limit itself, so
 * every bag below is one whose spill() writes memory into a run when the manager calls it.
 *
 * <p>The bags Pig's packagers fill (a GROUP's, COGROUP's or JOIN's) are not registered, as stock
 * Pig's internal bags are not; a bag other code fills (a UDF's: here the test fills it) is, as
 * stock Pig's default bags are; with sponge.pig.bag.memory=0 a packager's bag is registered too,
 * since the manager is then all that spills it. The packagers are Pig's own {@link Packager} and
 * {@link JoinPackager}, whose {@code attachInput} fills the bags; only {@code getBag()} is
 * replaced, to hand out the factory's bags as Pig's does with {@code pig.cachedbag.type=default}.
 */
class MemoryManagerRegistrationTest {
  private static final int TUPLES = 8_000;

  @BeforeEach
  void pigSpillsEveryBagPast100KB() {
    Configuration pig = new Configuration(false);
    pig.set("pig.spill.size.threshold", "100000");
    pig.set("pig.spill.gc.activation.size", Long.toString(Long.MAX_VALUE));
    SpillableMemoryManager.getInstance().configure(pig);
  }

  @Test
  void aGroupsBagPigsPackagerFillsIsNotRegistered() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, bagMemory("0.2"))) {
      List<Tuple> input = new RandomTuples(301, 1000).list(TUPLES);
      List<SpongeBag> made = fill(fixture, new GroupPackager(fixture), List.of(input));
      SpongeBag group = made.get(0);
      assertMegabyteBelowItsLimit(fixture, group);

      FullHeap.tellPig();

      assertThat(group.runCount()).as("spilled by Pig's memory manager").isZero();
      assertThat(group.inMemory()).isEqualTo(TUPLES);
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isZero();
      assertSameSequence(contents(group), input);
    }
  }

  @Test
  void theBagsPigsJoinPackagerFillsAreNotRegistered() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, bagMemory("0.2"))) {
      List<Tuple> left = new RandomTuples(302, 1000).list(TUPLES);
      List<Tuple> right = new RandomTuples(303, 1000).list(10);
      JoinPackager join = new BagJoinPackager(fixture);
      join.setNumInputs(2);
      List<SpongeBag> made = fill(fixture, join, List.of(left, right));
      assertThat(made).as("the streamed last input is not materialized").hasSize(1);
      SpongeBag joined = made.get(0);
      assertMegabyteBelowItsLimit(fixture, joined);

      FullHeap.tellPig();

      assertThat(joined.runCount()).as("spilled by Pig's memory manager").isZero();
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isZero();
      assertSameSequence(contents(joined), left);
    }
  }

  @Test
  void aBagAUdfFillsIsRegistered() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, bagMemory("0.2"))) {
      List<Tuple> input = new RandomTuples(304, 1000).list(TUPLES);
      SpongeBag udfs = (SpongeBag) fixture.factory.newDefaultBag();
      input.forEach(udfs::add);
      assertMegabyteBelowItsLimit(fixture, udfs);

      FullHeap.tellPig();

      assertThat(udfs.runCount()).as("spilled by Pig's memory manager").isEqualTo(1);
      assertThat(udfs.inMemory()).isZero();
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isEqualTo(1);
      assertThat(fixture.task().count(BagCounter.BAG_SPILLED_TUPLES)).isEqualTo(TUPLES);
      assertSameSequence(contents(udfs), input);
    }
  }

  @Test
  void withBagMemoryZeroTheBagsPigsPackagersFillAreRegistered() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, bagMemory("0"))) {
      List<Tuple> group = new RandomTuples(305, 1000).list(TUPLES);
      List<Tuple> left = new RandomTuples(306, 1000).list(TUPLES);
      List<Tuple> right = new RandomTuples(307, 1000).list(10);
      SpongeBag grouped = fill(fixture, new GroupPackager(fixture), List.of(group)).get(0);
      JoinPackager join = new BagJoinPackager(fixture);
      join.setNumInputs(2);
      SpongeBag joined = fill(fixture, join, List.of(left, right)).get(0);
      assertThat(fixture.task().memory().share()).isZero();
      for (SpongeBag bag : List.of(grouped, joined)) {
        assertThat(bag.getMemorySize()).isGreaterThan(200_000);
        assertThat(bag.selfSpillLimit()).as("no limit of its own").isZero();
      }

      FullHeap.tellPig();

      for (SpongeBag bag : List.of(grouped, joined)) {
        assertThat(bag.runCount()).as("spilled by Pig's memory manager").isEqualTo(1);
        assertThat(bag.inMemory()).isZero();
      }
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isEqualTo(2);
      assertThat(fixture.task().count(BagCounter.BAG_SPILLED_TUPLES)).isEqualTo(2L * TUPLES);
      assertSameSequence(contents(grouped), group);
      assertSameSequence(contents(joined), left);
    }
  }

  private static Configuration bagMemory(String fraction) {
    Configuration conf = new Configuration(false);
    conf.set(PigBagOptions.BAG_MEMORY.key(), fraction);
    return conf;
  }

  /** Past the 100 KiB at which a bag registers, below the smallest limit it could have. */
  private static void assertMegabyteBelowItsLimit(BagFixture fixture, SpongeBag bag) {
    long share = fixture.task().memory().share();
    assertThat(share).isEqualTo((long) (0.2 * Runtime.getRuntime().maxMemory()));
    assertThat(bag.getMemorySize()).isBetween(200_000L, share / 6);
    assertThat(bag.runCount()).as("not spilled by itself").isZero();
    assertThat(fixture.task().count(BagCounter.BAG_SELF_SPILLS)).isZero();
  }

  /**
   * {@code packager}'s own attachInput materializing one key's read-once bags, one per input, as
   * Pig's reduce side calls it; the bags it filled, each made by {@code packager.getBag()}.
   */
  private static List<SpongeBag> fill(
      BagFixture fixture, Packager packager, List<List<Tuple>> inputs) throws Exception {
    DataBag[] bags = new DataBag[inputs.size()];
    boolean[] readOnce = new boolean[inputs.size()];
    for (int i = 0; i < bags.length; i++) {
      bags[i] = new NonSpillableDataBag(inputs.get(i));
      readOnce[i] = true;
    }
    int before = ((Made) packager).made().size();

    packager.attachInput("key", bags, readOnce);

    List<SpongeBag> made = ((Made) packager).made();
    for (int i = 0; i < made.size() - before; i++) {
      assertThat((Object) bags[i]).isSameAs(made.get(before + i));
    }
    return made.subList(before, made.size());
  }

  /** A packager whose getBag() hands out the fixture's bags, and keeps them. */
  private interface Made {
    List<SpongeBag> made();
  }

  /** The fixture's bags a packager handed out. */
  private static final class MadeBags {
    private final BagFixture fixture;
    final List<SpongeBag> made = new ArrayList<>();

    MadeBags(BagFixture fixture) {
      this.fixture = fixture;
    }

    SpongeBag next() {
      SpongeBag bag = (SpongeBag) fixture.factory.newDefaultBag();
      made.add(bag);
      return bag;
    }
  }

  private static final class GroupPackager extends Packager implements Made {
    private static final long serialVersionUID = 1L;
    private final transient MadeBags bags;

    GroupPackager(BagFixture fixture) {
      this.bags = new MadeBags(fixture);
    }

    @Override
    public DataBag getBag() {
      return bags.next();
    }

    @Override
    public List<SpongeBag> made() {
      return bags.made;
    }
  }

  private static final class BagJoinPackager extends JoinPackager implements Made {
    private static final long serialVersionUID = 1L;
    private final transient MadeBags bags;

    BagJoinPackager(BagFixture fixture) {
      super(new Packager(), new POForEach(new OperatorKey("registration", 1)));
      this.bags = new MadeBags(fixture);
    }

    @Override
    public DataBag getBag() {
      return bags.next();
    }

    @Override
    public List<SpongeBag> made() {
      return bags.made;
    }
  }
}
