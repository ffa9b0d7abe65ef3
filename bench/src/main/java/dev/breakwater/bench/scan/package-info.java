/** Reverse versus forward scans: throughput over data larger than the buffer cache, and the heap a full reverse scan needs. */
package dev.breakwater.bench.scan;
