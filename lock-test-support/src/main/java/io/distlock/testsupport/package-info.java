/**
 * What the tests, the torture test and the benchmarks share: the databases they run on ({@link
 * io.distlock.testsupport.TestDatabase}), a data source that counts the statements sent through it ({@link
 * io.distlock.testsupport.CountingDataSource}), and the store-neutral contracts that every lock store's tests extend
 * ({@link io.distlock.testsupport.LockRepositoryContract}, {@link io.distlock.testsupport.LeaseContract}, {@link
 * io.distlock.testsupport.SlotStoreContract}).
 */
package io.distlock.testsupport;
