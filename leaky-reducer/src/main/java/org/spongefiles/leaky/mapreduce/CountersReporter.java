package org.spongefiles.leaky.mapreduce;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.StatusReporter;

/**
 * A status reporter that counts into {@link Counters}, for running a reducer outside a task attempt
 * (the module's tests and the leaky benchmarks): progress and status go nowhere.
 */
public final class CountersReporter extends StatusReporter {
  private final Counters counters;

  public CountersReporter(Counters counters) {
    this.counters = counters;
  }

  @Override
  public Counter getCounter(Enum<?> name) {
    return counters.findCounter(name);
  }

  @Override
  public Counter getCounter(String group, String name) {
    return counters.findCounter(group, name);
  }

  @Override
  public void progress() {}

  @Override
  public float getProgress() {
    return 0;
  }

  @Override
  public void setStatus(String status) {}
}
