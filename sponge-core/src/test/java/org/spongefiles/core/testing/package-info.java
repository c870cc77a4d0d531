/**
 * Test support shared by every module's tests through sponge-core's test-jar: temporary
 * directories, child JVMs, random bytes with their checksums, a task configuration on a private
 * pool.
 */
package org.spongefiles.core.testing;
