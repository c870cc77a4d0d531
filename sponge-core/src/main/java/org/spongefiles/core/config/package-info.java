/**
 * Typed configuration: {@link org.spongefiles.core.config.ConfigOption} declares a key once with
 * its default, rule, importance and description; {@link org.spongefiles.core.config.OptionSet}
 * groups a module's keys and holds the rules across them; {@link
 * org.spongefiles.core.config.ConfigCheck} validates a configuration once at the edge (each key,
 * then each set's rules across keys), reports unknown keys and returns the {@link
 * org.spongefiles.core.config.ParsedConfig} settings are built from (each key parsed once); {@link
 * org.spongefiles.core.config.OptionSets} finds every module's option sets on the classpath
 * (docs/configuration.md is generated from them by sponge-it's {@code ConfigReference}); {@link
 * org.spongefiles.core.config.NodeFinalKeys} reads the {@code sponge.*} keys a node's Hadoop site
 * files mark final, which win over a task's own values.
 *
 * <p>Owns: parsing, validation and documentation of keys, not their meaning. Must not import any
 * other package of SpongeFiles.
 */
package org.spongefiles.core.config;
