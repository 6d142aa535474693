import CLibUV
import CTransportShims

/// Raw libuv handle and request memory, and the owner each one keeps alive.
///
/// A handle's `data` holds a retained owner; the close callback releases it and
/// frees the memory, so an owner lives exactly as long as its handles.
enum UVHandle {
    static func allocate(_ type: uv_handle_type) -> UnsafeMutableRawPointer {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: uv_handle_size(type), alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: uv_handle_size(type))
        return memory
    }

    static func setOwner(_ handle: UnsafeMutableRawPointer, _ owner: AnyObject) {
        uv_handle_set_data(qt_handle(handle), Unmanaged.passRetained(owner).toOpaque())
    }

    static func owner<T: AnyObject>(of handle: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
        guard let handle, let data = uv_handle_get_data(qt_handle(handle)) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? T
    }

    /// Closes `handle` (once), then releases its owner and frees it.
    static func close(_ handle: UnsafeMutableRawPointer) {
        guard uv_is_closing(qt_handle(handle)) == 0 else { return }
        uv_close(qt_handle(handle)) { handle in
            guard let handle else { return }
            if let data = uv_handle_get_data(handle) {
                Unmanaged<AnyObject>.fromOpaque(data).release()
            }
            UnsafeMutableRawPointer(handle).deallocate()
        }
    }

    /// Frees a handle that was allocated but whose init failed (never closed by libuv).
    static func free(_ handle: UnsafeMutableRawPointer) {
        if let data = uv_handle_get_data(qt_handle(handle)) {
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        handle.deallocate()
    }
}

/// Request memory (writes, file reads) whose `data` retains the issuer until the callback.
enum UVRequest {
    static func allocate(_ type: uv_req_type, owner: AnyObject) -> UnsafeMutableRawPointer {
        let size = uv_req_size(type)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        uv_req_set_data(qt_req(memory), Unmanaged.passRetained(owner).toOpaque())
        return memory
    }

    /// Releases the retained owner and frees the memory, returning the owner.
    static func finish<T: AnyObject>(_ request: UnsafeMutableRawPointer, as type: T.Type) -> T? {
        let data = uv_req_get_data(qt_req(request))
        request.deallocate()
        guard let data else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(data).takeRetainedValue() as? T
    }
}
