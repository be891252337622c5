/// How a ``FileOverrideStore`` notices that another process changed its file.
public enum OverrideStoreWatchMode: Sendable, Hashable {
    /// inotify where available (Linux), otherwise polling every 250 ms.
    case automatic
    /// inotify on the store's folder (Linux only; elsewhere this falls back to polling every 250 ms).
    case inotify
    /// `stat` the file every `interval` and reload when its identity changes.
    case polling(interval: Duration)
}
