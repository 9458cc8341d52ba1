#pragma once
/// \file
/// thinmpi: header-only C++20 MPI whose convenient calls cost what the C calls cost.
/// The umbrella header; each header it includes also compiles on its own.

#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/collectives/ops.hpp"
#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/default_init_allocator.hpp"
#include "thinmpi/core/environment.hpp"
#include "thinmpi/core/error.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/core/views.hpp"
#include "thinmpi/framed/channel.hpp"
#include "thinmpi/framed/requests.hpp"
#include "thinmpi/node/channel.hpp"
#include "thinmpi/p2p/requests.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/completion.hpp"
#include "thinmpi/requests/persistent_request.hpp"
#include "thinmpi/rma/dynamic_window.hpp"
#include "thinmpi/rma/shared_window.hpp"
#include "thinmpi/rma/window.hpp"
#include "thinmpi/serialization/serialized.hpp"
#include "thinmpi/topology/cartesian.hpp"
#include "thinmpi/topology/graph.hpp"
