package org.spongefiles.bag.filler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.pig.data.DataBag;
import org.junit.jupiter.api.Test;

/**
 * The Pig on the classpath still has every class and method {@link PigFillers} names: a Pig release
 * that renames or moves one fails here, naming it, instead of silently changing which bags spill
 * themselves. Each class is loaded by name and each method found by reflection among the class's
 * own methods, since a frame on the stack names the class that declares the method running.
 */
class PigFillersTest {

  @Test
  void everyPigClassAndMethodTheRuleNamesExists() {
    List<String> missing = new ArrayList<>();
    for (PigFillers.Filler filler : PigFillers.all()) {
      Class<?> type;
      try {
        type = Class.forName(filler.className(), false, getClass().getClassLoader());
      } catch (ClassNotFoundException e) {
        missing.add(
            "class "
                + filler.className()
                + " (PigFillers names it as filling a bag in "
                + filler.method()
                + ")");
        continue;
      }
      boolean declared =
          Arrays.stream(type.getDeclaredMethods())
              .map(Method::getName)
              .anyMatch(filler.method()::equals);
      if (!declared) {
        missing.add(
            "method "
                + filler
                + " (the class exists, but no longer declares the method PigFillers names)");
      }
    }
    if (!missing.isEmpty()) {
      fail(
          "The Pig on the classpath lacks what the self-spill rule relies on; update PigFillers "
              + "after reading where this Pig fills its internal bags: "
              + String.join("; ", missing));
    }
  }

  /** The methods named are Pig's operators' own, where their bags are filled. */
  @Test
  void theFillersAreStockPigsInternalBagUsers() {
    assertThat(PigFillers.all())
        .extracting(PigFillers.Filler::toString)
        .containsExactlyInAnyOrder(
            op("POPackage.getNextTuple"),
            op("Packager.attachInput"),
            op("JoinPackager.attachInput"),
            op("POCollectedGroup.getNextTuple"),
            "org.apache.pig.backend.hadoop.executionengine.tez.plan.operator."
                + "POShuffleTezLoad.getNextTuple",
            op("POSort.getNextTuple"),
            op("PODistinct.getNextTuple"),
            "org.apache.pig.builtin.Distinct.getDistinct");
    for (PigFillers.Filler filler : PigFillers.all()) {
      boolean nested =
          filler.className().endsWith("POSort") || filler.className().endsWith("Distinct");
      boolean join = filler.className().endsWith("JoinPackager");
      assertThat(filler.sharers())
          .as(filler.toString())
          .isEqualTo(nested ? PigFillers.NESTED : join ? PigFillers.JOIN : PigFillers.GROUP);
      assertThat(PigFillers.isGroup(filler.sharers())).isEqualTo(!nested);
      assertThat(PigFillers.named(filler.className())).contains(filler);
    }
    assertThat(PigFillers.sharersOf(DataBag.class.getName())).isEqualTo(PigFillers.NONE);
  }

  @Test
  void theRuleSkipsThisModulesFramesOnly() {
    assertThat(SelfSpill.ofThisModule("org.spongefiles.bag.SpongeBag")).isTrue();
    assertThat(SelfSpill.ofThisModule("org.spongefiles.bag.run.RunWriter")).isTrue();
    assertThat(SelfSpill.ofThisModule("org.spongefiles.bagger.Udf")).isFalse();
    assertThat(SelfSpill.ofThisModule(op("POSort"))).isFalse();
    assertThat(SelfSpill.filler())
        .as("this test's caller, outside the module")
        .hasValueSatisfying(
            frame -> assertThat(frame.getClassName()).doesNotStartWith("org.spongefiles.bag."));
  }

  private static String op(String name) {
    return "org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators."
        + name;
  }
}
