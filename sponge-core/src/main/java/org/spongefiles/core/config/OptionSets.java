package org.spongefiles.core.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The option sets every module declares, found on the classpath through {@link ServiceLoader}. */
public final class OptionSets {
  private OptionSets() {}

  /** Every option set visible to this class loader, in documentation order. */
  public static List<OptionSet> discover() {
    List<OptionSet> sets = new ArrayList<>();
    ServiceLoader.load(OptionSet.class, OptionSets.class.getClassLoader()).forEach(sets::add);
    sets.sort(Comparator.comparingInt(OptionSet::order).thenComparing(OptionSet::title));
    ConfigCheck.index(sets); // a key declared twice fails here, before anything reads it
    return sets;
  }
}
