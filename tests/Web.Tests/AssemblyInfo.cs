// Each test starts a dashboard with its embedded runner; side by side they would measure each other.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
