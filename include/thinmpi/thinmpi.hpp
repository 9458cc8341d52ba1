#pragma once
/// \file
/// thinmpi: header-only C++20 MPI whose convenient calls cost what the C calls cost.
/// The umbrella header; each header it includes also compiles on its own.

#include "thinmpi/collective_request.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/communicator.hpp"
#include "thinmpi/completion.hpp"
#include "thinmpi/concepts.hpp"
#include "thinmpi/datatype.hpp"
#include "thinmpi/default_init_allocator.hpp"
#include "thinmpi/environment.hpp"
#include "thinmpi/error.hpp"
#include "thinmpi/framed.hpp"
#include "thinmpi/ops.hpp"
#include "thinmpi/persistent_request.hpp"
#include "thinmpi/request.hpp"
#include "thinmpi/serialization/serialized.hpp"
#include "thinmpi/status.hpp"
