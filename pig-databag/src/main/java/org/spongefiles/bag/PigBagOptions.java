package org.spongefiles.bag;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.bag.filler.SelfSpill;
import org.spongefiles.bag.task.BagSettings;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.config.Validator;

/**
 * Keys the Pig bags read from the task's job configuration (a Pig script's {@code SET}, a {@code
 * -propertyFile} or the cluster's mapred-site.xml), beside sponge-core's keys.
 */
public final class PigBagOptions implements OptionSet {

  public static final ConfigOption<Integer> MERGE_FANIN =
      ConfigOption.integer("sponge.pig.merge.fanin", 100)
          .validate(Validator.between(2, 10_000))
          .describe(
              "Most spilled runs a sorted or distinct bag merges at once when it is read. A bag "
                  + "with more runs first merges them, this many at a time, into new runs, as "
                  + "Pig's own bags do with more than 100 spill files. Each run being merged holds "
                  + "a reader (see sponge.pig.read.buffer).");

  public static final ConfigOption<Long> READ_BUFFER =
      ConfigOption.bytes("sponge.pig.read.buffer", 64L << 10)
          .validate(Validator.bytesBetween(4L << 10, 16L << 20))
          .describe(
              "Bytes a bag's reader of one spilled run buffers: twice this much in direct "
                  + "memory (rounded to checksum blocks, at most a chunk), plus this much on the "
                  + "heap. "
                  + "The readers of one merge share a quarter of sponge.pig.bag.memory: more "
                  + "runs than fit with this buffer each get less (at least 4 KiB).");

  public static final ConfigOption<Double> BAG_MEMORY =
      ConfigOption.decimal("sponge.pig.bag.memory", 0.2)
          .validate(Validator.between(0.0, 0.9))
          .describe(
              "Fraction of the task's heap that bags share, as Pig's internal bags share "
                  + "pig.cachedbag.memusage (same default): a GROUP's bag spills itself into a "
                  + "SpongeFile past all of it, each bag of a COGROUP or JOIN of n inputs past "
                  + "1/n (the bags Pig makes together for a key), a nested ORDER's or DISTINCT's "
                  + "bag past a third, by Pig's sampled tuple sizes; other bags (a UDF's) wait for "
                  + "Pig's memory manager, as in stock Pig (see sponge.pig.bag.self.spill). On "
                  + "Tez each bag of a COGROUP gets all of it: lower this there for scripts that "
                  + "cogroup large inputs. 0 leaves spilling to Pig's memory "
                  + "manager alone, which spills late and follows each spill with System.gc(). "
                  + "The bags' own run readers and "
                  + "writers (buffers and merge heads) count in this share: while they are open, "
                  + "bags spill themselves earlier, keeping at least a quarter of it for tuples.");

  public static final ConfigOption<SelfSpill> SELF_SPILL =
      ConfigOption.choice("sponge.pig.bag.self.spill", SelfSpill.PIG)
          .describe(
              "Which bags spill themselves past their part of sponge.pig.bag.memory. pig: as "
                  + "stock Pig, the bags Pig's operators fill where stock Pig uses its internal "
                  + "bags (a GROUP's, COGROUP's or JOIN's bag past its part of the share, "
                  + "a nested ORDER's or "
                  + "DISTINCT's past a third), found from the filling thread's stack once a bag "
                  + "passes a third of the share; bags filled by anyone else (UDFs, projections, "
                  + "deserialization) wait for Pig's memory manager, as stock Pig's do. always: "
                  + "every bag, whoever fills it (a default bag past all of the share, a sorted "
                  + "or distinct bag past a third), as earlier releases did.");

  private static final List<ConfigOption<?>> ALL =
      List.of(BAG_MEMORY, SELF_SPILL, MERGE_FANIN, READ_BUFFER);

  /**
   * The bags' settings of a task configured by {@code conf}: every {@code sponge.*} key of
   * sponge-core's and of this set is parsed and checked once (unknown keys are warned about), and
   * the task's SpongeFiles are opened with the same values at its first spill.
   *
   * @throws org.spongefiles.core.config.ConfigException naming the key when a value is invalid, so
   *     a bad recipe fails the task at its first bag, not at its first spill
   */
  public static BagSettings settings(Configuration conf) {
    ParsedConfig values = SpongeTask.parse(conf, new PigBagOptions());
    return new BagSettings(
        values.get(BAG_MEMORY),
        values.get(READ_BUFFER).intValue(),
        values.get(MERGE_FANIN),
        values.get(SELF_SPILL),
        values);
  }

  @Override
  public String title() {
    return "pig-databag: Pig bags spilling to SpongeFiles";
  }

  @Override
  public String summary() {
    return "Read by the bags of org.spongefiles.bag.SpongeBagFactory in each Pig task, from the "
        + "job's configuration; the recipe (docs/pig-databag.md) sets them with the sponge.* "
        + "keys of sponge-core in the script's properties file.";
  }

  @Override
  public List<ConfigOption<?>> options() {
    return ALL;
  }

  @Override
  public int order() {
    return 40;
  }
}
