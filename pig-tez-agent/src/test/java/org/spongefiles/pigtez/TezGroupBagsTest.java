package org.spongefiles.pigtez;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapReduce;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.InternalCachedBag;
import org.apache.pig.data.TupleFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The patched operator's bags are chosen as POPackage chooses on MapReduce, by the task's {@code
 * pig.cachedbag.type}: the factory's default bag for {@code default}, else Pig's InternalCachedBag.
 */
class TezGroupBagsTest {

  @AfterEach
  void forgetTheTask() {
    PigMapReduce.sJobConfInternal.remove();
  }

  private static void task(String bagType) {
    Configuration conf = new Configuration(false);
    if (bagType != null) {
      conf.set(TezGroupBags.BAG_TYPE, bagType);
    }
    PigMapReduce.sJobConfInternal.set(conf);
  }

  @Test
  void defaultTakesTheFactorysBag() throws Exception {
    task("default");
    DataBag bag = TezGroupBags.newGroupBag(2);
    assertThat(bag.getClass()).isEqualTo(BagFactory.getInstance().newDefaultBag().getClass());
    assertThat((Object) bag).isNotInstanceOf(InternalCachedBag.class);
    bag.add(TupleFactory.getInstance().newTuple("a"));
    assertThat(bag.size()).isEqualTo(1);
  }

  @Test
  void anythingElseIsPigsInternalBag() {
    for (String type : new String[] {null, "internal", "other"}) {
      task(type);
      assertThat((Object) TezGroupBags.newGroupBag(3))
          .as("pig.cachedbag.type=%s", type)
          .isInstanceOf(InternalCachedBag.class);
    }
    PigMapReduce.sJobConfInternal.remove();
    assertThat((Object) TezGroupBags.newGroupBag(1))
        .as("no task")
        .isInstanceOf(InternalCachedBag.class);
  }
}
