// Latency tests measure wall time; running them beside each other would make them measure each other.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
