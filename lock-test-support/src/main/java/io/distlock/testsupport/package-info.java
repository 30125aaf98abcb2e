/**
 * What the tests, the torture test and the benchmarks share: the databases they run on ({@link
 * io.distlock.testsupport.TestDatabase}) and a data source that counts the statements sent through it ({@link
 * io.distlock.testsupport.CountingDataSource}).
 */
package io.distlock.testsupport;
