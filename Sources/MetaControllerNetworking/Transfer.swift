import MetaControllerCore
import MetaControllerSupport
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt of a request through `URLSession`, with a deadline for the whole
/// exchange and cancellation through the awaiting task.
///
/// `URLSession`'s own `timeoutInterval` limits the wait between two bytes, not
/// the whole exchange (and on Linux drops its fraction of a second), and its
/// async methods are not on every platform this package supports; so the
/// attempt runs a data task under a continuation and cancels it itself at the
/// deadline, to the nanosecond, remembering why. The request's own
/// `timeoutInterval` is the limit rounded up to whole seconds, so it never
/// fires first.
struct Transfer: Sendable {
    private enum Reason: Sendable {
        case cancelled
        case timedOut
    }

    private struct State: Sendable {
        var task: URLSessionDataTask?
        var reason: Reason?
        var isFinished = false
        /// The waiting caller, until the transfer's handler or a cancellation answers it.
        var continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), ApiError>, Never>?
    }

    let request: ApiRequest
    let limit: Duration

    func run(_ urlRequest: URLRequest, in session: URLSession) async throws(ApiError) -> (Data, HTTPURLResponse) {
        let state = Lock(State())
        let result: Result<(Data, HTTPURLResponse), ApiError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.continuation = continuation }
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    let (reason, waiting) = state.withLock { state in
                        state.isFinished = true
                        defer { state.continuation = nil }
                        return (state.reason, state.continuation)
                    }
                    // Nil when a cancellation has answered the caller already.
                    waiting?.resume(returning: outcome(data, response, error, reason: reason))
                }
                let startNow = state.withLock { state in
                    state.task = task
                    return state.reason == nil
                }
                guard startNow else {
                    // Cancelled before the task existed: it never starts.
                    task.cancel()
                    answerCancelled(state)
                    return
                }
                // Fires even after the transfer finished (a work item cannot be cancelled
                // across threads here); it then finds the transfer finished and does nothing.
                DispatchQueue.global().asyncAfter(deadline: limit.dispatchDeadline) { [weak task] in
                    let expired = state.withLock { state in
                        guard state.reason == nil, !state.isFinished else { return false }
                        state.reason = .timedOut
                        return true
                    }
                    if expired { task?.cancel() }
                }
                task.resume()
            }
        } onCancel: {
            let task = state.withLock { state in
                if state.reason == nil { state.reason = .cancelled }
                return state.task
            }
            task?.cancel()
            // The caller is answered now, not when URLSession reports the cancelled task (which
            // a loaded machine was seen to leave until the server's answer came, 30 s later).
            answerCancelled(state)
        }
        return try result.get()
    }

    /// Resumes the waiting caller with ``ApiError/Code/cancelled``, unless it was answered already
    /// (or a timeout, not the cancellation, ended the transfer: URLSession's handler reports that).
    private func answerCancelled(_ state: Lock<State>) {
        let waiting = state.withLock { state -> CheckedContinuation<Result<(Data, HTTPURLResponse), ApiError>, Never>? in
            guard state.reason == .cancelled else { return nil }
            defer { state.continuation = nil }
            return state.continuation
        }
        waiting?.resume(returning: .failure(.cancelled(for: request)))
    }

    private func outcome(
        _ data: Data?, _ response: URLResponse?, _ error: (any Error)?, reason: Reason?
    ) -> Result<(Data, HTTPURLResponse), ApiError> {
        if let error {
            let code = (error as? URLError)?.code
            if code == .cancelled || reason != nil {
                return .failure(reason == .timedOut ? .timeout(after: limit, for: request) : .cancelled(for: request))
            }
            if code == .timedOut { return .failure(.timeout(after: limit, for: request)) }
            return .failure(.transport(Self.explain(error), for: request))
        }
        guard let response = response as? HTTPURLResponse else {
            return .failure(.transport("the answer is not an HTTP response", for: request))
        }
        return .success((data ?? Data(), response))
    }

    private static func explain(_ error: any Error) -> String {
        guard let error = error as? URLError else { return String(describing: error) }
        let text: String
        switch error.code {
        case .cannotConnectToHost: text = "cannot connect to the server"
        case .cannotFindHost: text = "cannot find the server"
        case .networkConnectionLost: text = "the connection was lost"
        case .notConnectedToInternet: text = "not connected to the internet"
        case .badServerResponse: text = "the server's answer is malformed"
        case .secureConnectionFailed: text = "the secure connection failed"
        default: text = error.localizedDescription
        }
        return "\(text) (URLError \(error.code.rawValue))"
    }
}
