package org.spongefiles.leaky;

import java.util.List;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.Validator;

/** Every key the leaky-buffer hashtable and its reducer helpers read, declared once. */
public final class LeakyOptions implements OptionSet {

  public static final ConfigOption<Long> BUDGET =
      ConfigOption.bytes("sponge.leaky.budget", 0)
          .validate(Validator.bytesBetween(0, 1L << 50))
          .describe(
              "Heap bytes one table may hold in value bytes and value indexes before it moves value "
                  + "pages to SpongeFiles (pool, remote, disk). 0 means "
                  + "sponge.leaky.budget.fraction of the task's maximum heap. Keys are control "
                  + "information and always stay on the heap.");

  public static final ConfigOption<Double> BUDGET_FRACTION =
      ConfigOption.decimal("sponge.leaky.budget.fraction", 0.3)
          .validate(Validator.between(0.01, 0.9))
          .describe(
              "The budget as a fraction of the JVM's maximum heap, when sponge.leaky.budget is 0.");

  public static final ConfigOption<Layout> LAYOUT =
      ConfigOption.choice("sponge.leaky.layout", Layout.AUTO)
          .describe(
              "Value layout: shared (one paged log, per-key value addresses; joins), per_key (one "
                  + "growable array per key; group-by) or auto (decided from the observed load "
                  + "factor).");

  public static final ConfigOption<Integer> AUTO_LOAD_FACTOR =
      ConfigOption.integer("sponge.leaky.auto.load.factor", 16)
          .validate(Validator.between(2, 1 << 20))
          .describe(
              "With layout auto: the load factor (values per key) at and above which the table "
                  + "chooses the per-key layout. It is estimated from the puts per new key over the "
                  + "latest values, so a group-by whose keys have mostly arrived is recognized "
                  + "early.");

  public static final ConfigOption<Integer> AUTO_SAMPLE =
      ConfigOption.integer("sponge.leaky.auto.sample", 1 << 20)
          .validate(Validator.between(16, 1 << 30))
          .describe(
              "With layout auto: how many values the table holds in the shared layout before it "
                  + "decides; it decides earlier when it reaches half its budget.");

  public static final ConfigOption<Long> PAGE_SIZE =
      ConfigOption.bytes("sponge.leaky.page.size", 1L << 20)
          .validate(Validator.bytesBetween(4L << 10, 64L << 20))
          .describe(
              "Size of one page of the shared layout's value log, and the largest array of the "
                  + "per-key layout and of the shared layout's per-key address lists (a key's first "
                  + "array doubles up to it, then the key gets more pages of this size). Values "
                  + "larger than a page span pages.");

  public static final ConfigOption<ValueBytes> VALUE_BYTES =
      ConfigOption.choice("sponge.leaky.value.bytes", ValueBytes.RAW)
          .describe(
              "How the reducer helpers get a value's bytes: raw (copy the bytes Hadoop holds, "
                  + "through @Private reduce-side internals; no value is deserialized on the way "
                  + "in; falls back to reserialize when they are not there) or reserialize "
                  + "(public API only: Hadoop deserializes the value, the helper serializes it "
                  + "again).");

  public static final ConfigOption<Long> JOIN_PROBE_BATCH =
      ConfigOption.bytes("sponge.leaky.join.probe.batch", 1L << 20)
          .validate(Validator.bytesBetween(1, 1L << 30))
          .describe(
              "LeakyJoinReducer: serialized probe-side records of one join key buffered on the heap "
                  + "when that key's build-side values were moved to SpongeFiles; the build values "
                  + "are read back once per batch instead of once per probe record.");

  /** A table's budget: {@link #BUDGET}, or {@link #BUDGET_FRACTION} of this JVM's maximum heap. */
  static long budget(ConfigValues values) {
    long configured = values.get(BUDGET);
    return configured > 0
        ? configured
        : (long) (Runtime.getRuntime().maxMemory() * values.get(BUDGET_FRACTION));
  }

  /** The budget holds at least two pages. */
  @Override
  public void checkTogether(ConfigValues values) {
    long budget = budget(values);
    long pageSize = values.get(PAGE_SIZE);
    if (budget < 2L * pageSize) {
      throw new ConfigException(
          BUDGET.key(),
          ByteSize.format(budget),
          "must hold at least two pages of "
              + PAGE_SIZE.key()
              + " ("
              + ByteSize.format(pageSize)
              + ")");
    }
  }

  @Override
  public String title() {
    return "leaky-reducer: the leaky-buffer hashtable";
  }

  @Override
  public String summary() {
    return "Read by LeakyHashTable and the reducer helpers (LeakyGroupingReducer, "
        + "LeakyJoinReducer) in reduce tasks; set them in a job's configuration.";
  }

  @Override
  public List<ConfigOption<?>> options() {
    return List.of(
        BUDGET,
        BUDGET_FRACTION,
        LAYOUT,
        AUTO_LOAD_FACTOR,
        AUTO_SAMPLE,
        PAGE_SIZE,
        VALUE_BYTES,
        JOIN_PROBE_BATCH);
  }

  @Override
  public int order() {
    return 60;
  }
}
